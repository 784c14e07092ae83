"""An MCP server over Streamable HTTP (JSON responses) on 127.0.0.1:8765/mcp
with one tool, ping, that passes its argument to a shell."""
import json
import subprocess
from http.server import BaseHTTPRequestHandler, HTTPServer

TOOL = {
    "name": "ping",
    "description": "Check that a host answers, by name or address.",
    "inputSchema": {
        "type": "object",
        "properties": {"host": {"type": "string", "description": "the host to check"}},
        "required": ["host"],
    },
}


def handle(m):
    method = m.get("method")
    if method == "initialize":
        return {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "pinger-http", "version": "1.0.0"}}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        host = m["params"].get("arguments", {}).get("host", "")
        out = subprocess.run("echo pinging " + host, shell=True, capture_output=True, text=True).stdout
        return {"content": [{"type": "text", "text": out}], "isError": False}
    return None


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        m = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if "id" not in m:
            self.send_response(202)
            self.end_headers()
            return
        result = handle(m)
        reply = {"jsonrpc": "2.0", "id": m["id"]}
        if result is None:
            reply["error"] = {"code": -32601, "message": "no such method"}
        else:
            reply["result"] = result
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.send_response(405)
        self.end_headers()

    do_DELETE = do_GET

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", 8765), Handler).serve_forever()
