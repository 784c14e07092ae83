package main

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const note = "Try a broader dish name, or ask the user which cuisine they prefer."

func findRecipe(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText("No recipe yet. " + note), nil
}

func main() {
	s := server.NewMCPServer("recipes", "1.0.0")
	s.AddTool(mcp.NewTool("find_recipe", mcp.WithDescription("Finds a recipe by dish name.")), findRecipe)
	server.ServeStdio(s)
}
