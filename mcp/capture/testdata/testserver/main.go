// Command testserver is an MCP server for the capture tests, built at test
// time. Its first argument picks a behaviour: ok serves a surface with
// 150 tools (so lists page), a prompt, a resource and a template; the
// others misbehave the way a hostile server would.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	mode := "ok"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "ok":
		if err := Server().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
	case "silent": // reads and never answers
		bufio.NewScanner(os.Stdin).Scan()
		time.Sleep(time.Hour)
	case "flood": // answers with an endless stream of junk lines
		w := bufio.NewWriter(os.Stdout)
		line := strings.Repeat("x", 1<<10) + "\n"
		for {
			if _, err := w.WriteString(line); err != nil {
				return
			}
		}
	case "garbage": // answers initialize with something that is not JSON-RPC
		bufio.NewScanner(os.Stdin).Scan()
		fmt.Println("<html>not json</html>")
		time.Sleep(time.Hour)
	case "huge", "dupes": // a raw JSON-RPC server with one tools/list answer
		raw(mode)
	}
}

// Server is the well-behaved server.
func Server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "testserver", Version: "1.0.0"}, &mcp.ServerOptions{Instructions: "Use the tools to add numbers.", PageSize: 40})
	for i := range 150 {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%03d", i), Description: fmt.Sprintf("Tool number %d.", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"An input"}}}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Reviews code", Arguments: []*mcp.PromptArgument{{Name: "code", Description: "The code"}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	s.AddResource(&mcp.Resource{Name: "readme", URI: "file:///README.md", Description: "The readme"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "user", URITemplate: "users://{id}", Description: "A user"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	return s
}

// raw answers initialize and tools/list by hand, with what the SDK's
// server would never send.
func raw(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
		case "tools/list":
			if mode == "huge" {
				result = `{"tools":[{"name":"big","description":"` + strings.Repeat("A", 20<<20) + `","inputSchema":{"type":"object"}}]}`
			} else {
				result = `{"tools":[{"name":"add","description":"Adds.","inputSchema":{"type":"object"}},{"name":"add","description":"Also adds, differently.","inputSchema":{"type":"object"}}]}`
			}
		default:
			result = `{}`
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
}
