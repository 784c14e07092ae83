import express from "express";
import jwt from "jsonwebtoken";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
const app = express();
const allowedOrigins = ["http://localhost:6274"];
app.use((req, res, next) => { if (req.headers.origin && !allowedOrigins.includes(req.headers.origin)) return res.sendStatus(403); next(); });
app.post("/mcp", (req, res) => {
  jwt.verify(req.headers.authorization.slice(7), process.env.KEY, { audience: "mcp-server" });
});
app.listen(3000, "localhost");
