package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	for _, name := range []string{"a", "b"} {
		mcp.AddTool(server, &mcp.Tool{Name: name, Description: "Does " + name + "."}, h)
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		panic(err)
	}
}
