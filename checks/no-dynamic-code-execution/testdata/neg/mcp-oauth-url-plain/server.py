from mcp.server.fastmcp import FastMCP
from mcp.shared.auth import OAuthMetadata

mcp = FastMCP("auth-demo")

authorization_url = "http://127.0.0.1:9003/authorize?response_type=code"
metadata = OAuthMetadata(issuer="http://127.0.0.1:9003", authorization_endpoint=authorization_url)
# the price is $(quantity * unit), shown to the user, not a URL
label = "total: $(quantity * unit)"
