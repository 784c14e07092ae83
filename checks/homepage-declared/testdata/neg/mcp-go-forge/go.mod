module github.com/acme/weather-mcp

go 1.22

require github.com/modelcontextprotocol/go-sdk v1.0.0
