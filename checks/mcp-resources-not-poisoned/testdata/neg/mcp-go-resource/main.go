package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	server.AddResource(&mcp.Resource{Name: "readme", URI: "file:///README.md", Description: "The readme"}, h)
	server.Run(context.Background(), &mcp.StdioTransport{})
}
