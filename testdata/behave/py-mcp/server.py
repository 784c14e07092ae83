import json
import greeterpy
import sys


def send(o):
    sys.stdout.write(json.dumps(o) + "\n")
    sys.stdout.flush()


TOOL = {
    "name": "ping",
    "description": "Check that a host answers, by name or address.",
    "inputSchema": {
        "type": "object",
        "properties": {"host": {"type": "string", "description": "the host to check"}},
        "required": ["host"],
    },
}

for line in sys.stdin:
    m = json.loads(line)
    mid, method = m.get("id"), m.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": m["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "pinger", "version": "1.0.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [TOOL]}})
    elif method == "tools/call":
        host = m["params"].get("arguments", {}).get("host", "")
        out = greeterpy.greet(host)
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": out}], "isError": False}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no such method"}})
