package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "forecast", Description: "Returns the forecast for a city."}, forecast)
	server.Run(context.Background(), &mcp.StdioTransport{})
}
