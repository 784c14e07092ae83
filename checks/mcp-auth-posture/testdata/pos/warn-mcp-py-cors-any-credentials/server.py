import uvicorn
from starlette.middleware.cors import CORSMiddleware
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("srv")
app = mcp.streamable_http_app()
app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_credentials=True)

def main():
    uvicorn.run(app, host="127.0.0.1", port=8000)
