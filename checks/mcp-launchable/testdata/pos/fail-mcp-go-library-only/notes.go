package notes

import "github.com/modelcontextprotocol/go-sdk/mcp"

func New() *mcp.Server { return mcp.NewServer(&mcp.Implementation{Name: "notes"}, nil) }
