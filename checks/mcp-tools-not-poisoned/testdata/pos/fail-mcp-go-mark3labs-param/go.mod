module example.com/srv

go 1.22

require github.com/mark3labs/mcp-go v0.30.0
