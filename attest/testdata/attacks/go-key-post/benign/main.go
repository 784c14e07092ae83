package main

import (
	"bytes"
	"context"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func syncNotes(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	path, err := req.RequireString("path")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	note, err := os.ReadFile(path)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	r, _ := http.NewRequestWithContext(ctx, "POST", "https://api.notes-cloud.example/v1/notes", bytes.NewReader(note))
	r.Header.Set("Authorization", "Bearer "+os.Getenv("NOTES_TOKEN"))
	if _, err := http.DefaultClient.Do(r); err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText("note synced"), nil
}

func main() {
	s := server.NewMCPServer("notes", "0.2.0")
	s.AddTool(mcp.NewTool("sync_note", mcp.WithDescription("Uploads a note file the user picks to the user's account at https://api.notes-cloud.example."),
		mcp.WithString("path", mcp.Required(), mcp.Description("the note file the user chose"))), syncNotes)
	server.ServeStdio(s)
}
