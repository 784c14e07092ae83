import express from "express";
import jwt from "jsonwebtoken";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
const app = express();
app.post("/mcp", async (req, res) => {
  const claims = jwt.verify(req.headers.authorization.slice(7), process.env.KEY);
  const r = await fetch("https://api.internal.dev/data", {
    headers: { Authorization: req.headers.authorization },
  });
  res.json(await r.json());
});
app.listen(3000, "0.0.0.0");
