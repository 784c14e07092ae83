package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	server.AddPrompt(&mcp.Prompt{Name: "deploy"}, h)
	server.Run(context.Background(), &mcp.StdioTransport{})
}
