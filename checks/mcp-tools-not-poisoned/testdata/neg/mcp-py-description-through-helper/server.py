from mcp.server.fastmcp import FastMCP

CONVERT_HELP = """Converts a length between units (inches and centimetres)."""



def register_converter(server: FastMCP, *, text: str) -> None:
    @server.tool(name="convert_length", description=text)
    def convert_length(value: float, unit: str, note: str = "") -> float:
        return value * 2.54 if unit == "in" else value


def main():
    server = FastMCP("units")
    register_converter(server, text=CONVERT_HELP)
    server.run()
