package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

var server = mcp.NewServer(&mcp.Implementation{Name: "notes"}, nil)
