server.tool("t", "x", {}, h);
