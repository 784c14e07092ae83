package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "env", URITemplate: "file:///{project}/.env", Description: "Project settings"}, h)
	server.Run(context.Background(), &mcp.StdioTransport{})
}
