package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/mcp"
)

var (
	buildOnce sync.Once
	serverBin string
	buildErr  error
)

// testServer builds testdata/testserver once per test run.
func testServer(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "attest-testserver-")
		if err != nil {
			buildErr = err
			return
		}
		serverBin = filepath.Join(dir, "testserver")
		out, err := exec.Command("go", "build", "-o", serverBin, "./testdata/testserver").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building the test server: %v", buildErr)
	}
	return serverBin
}

func command(t *testing.T, mode string) *sdk.CommandTransport {
	return &sdk.CommandTransport{Command: exec.Command(testServer(t), mode), TerminateDuration: 200 * time.Millisecond}
}

func checkSurface(t *testing.T, s *mcp.Surface, origin string) {
	t.Helper()
	if s.Origin != origin || len(s.Tools) != 150 || s.Tools[0].Name != "tool_000" || s.Tools[149].Name != "tool_149" {
		t.Fatalf("tools: origin %s, %d tools", s.Origin, len(s.Tools))
	}
	if p := s.Tools[7].Params; len(p) != 1 || p[0].Description != "An input" || mcp.SchemaSHA256(s.Tools[7].InputSchema) == "" {
		t.Errorf("tool params %+v", p)
	}
	if s.Instructions != "Use the tools to add numbers." {
		t.Errorf("instructions %q", s.Instructions)
	}
	if len(s.Prompts) != 1 || s.Prompts[0].Arguments[0].Description != "The code" {
		t.Errorf("prompts %+v", s.Prompts)
	}
	if len(s.Resources) != 2 {
		t.Errorf("resources %+v", s.Resources)
	}
}

// TestCaptureStdio captures a real server over stdio, 150 tools in pages
// of 40.
func TestCaptureStdio(t *testing.T) {
	s, err := Capture(context.Background(), command(t, "ok"), CaptureOptions{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	checkSurface(t, s, mcp.Observed)
}

// TestCaptureStreamableHTTP captures the same server over Streamable HTTP.
func TestCaptureStreamableHTTP(t *testing.T) {
	srv := newServer()
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	s, err := Capture(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, CaptureOptions{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	checkSurface(t, s, mcp.Observed)
}

// TestCaptureHostileServers: each misbehaving server ends the capture
// with an error (or, for duplicate names, with both entries recorded) in
// bounded time and memory.
func TestCaptureHostileServers(t *testing.T) {
	for _, c := range []struct {
		mode string
		want string
	}{
		{"silent", "capture timeout"},
		{"flood", ""},
		{"garbage", ""},
		{"huge", ""},
	} {
		t.Run(c.mode, func(t *testing.T) {
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Capture(context.Background(), command(t, c.mode), CaptureOptions{Timeout: 2 * time.Second, MaxDescriptionBytes: 1 << 20})
			if err == nil {
				t.Fatal("a hostile server's capture succeeded")
			}
			if c.want != "" && !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to say %q", err, c.want)
			}
			// Time is bounded by the capture's own timeout (a hang would meet
			// the test binary's deadline); it is logged, not asserted.
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 256<<20 {
				t.Errorf("heap grew by %d MiB", grew>>20)
			}
			t.Logf("%s: %v (%s)", c.mode, err, time.Since(start).Round(time.Millisecond))
		})
	}
	t.Run("dupes", func(t *testing.T) {
		s, err := Capture(context.Background(), command(t, "dupes"), CaptureOptions{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Tools) != 2 || s.Tools[0].Name != "add" || s.Tools[1].Name != "add" {
			t.Errorf("duplicate names: %+v", s.Tools)
		}
	})
}

// newServer is the well-behaved server of testdata/testserver, in-process
// for the HTTP transport.
func newServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "testserver", Version: "1.0.0"}, &sdk.ServerOptions{Instructions: "Use the tools to add numbers.", PageSize: 40})
	for i := range 150 {
		s.AddTool(&sdk.Tool{Name: fmt.Sprintf("tool_%03d", i), Description: fmt.Sprintf("Tool number %d.", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"An input"}}}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
	}
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "Reviews code", Arguments: []*sdk.PromptArgument{{Name: "code", Description: "The code"}}},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{}, nil
		})
	s.AddResource(&sdk.Resource{Name: "readme", URI: "file:///README.md", Description: "The readme"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "user", URITemplate: "users://{id}", Description: "A user"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{}, nil
		})
	return s
}

// FuzzCapture serves one tool whose name, description and input schema
// are arbitrary over an in-memory transport: the capture must return them
// as served, or an error, and never panic.
func FuzzCapture(f *testing.F) {
	f.Add("add", "Adds two numbers.", []byte(`{"type":"object","properties":{"a":{"type":"number","description":"x","enum":["y"]}}}`))
	f.Add("a\u200bb", "<IMPORTANT>x</IMPORTANT>", []byte(`{"type":"object"}`))
	f.Fuzz(func(t *testing.T, name, desc string, schema []byte) {
		var obj map[string]any
		if name == "" || json.Unmarshal(schema, &obj) != nil || obj["type"] != "object" || !utf8.ValidString(name) || !utf8.ValidString(desc) {
			return // the server refuses these; JSON cannot carry invalid UTF-8
		}
		srv := sdk.NewServer(&sdk.Implementation{Name: "fuzz", Version: "1"}, nil)
		srv.AddTool(&sdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
		ct, st := sdk.NewInMemoryTransports()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			return
		}
		defer ss.Close()
		s, err := Capture(ctx, ct, CaptureOptions{Timeout: 5 * time.Second})
		if err != nil {
			return
		}
		if len(s.Tools) != 1 || s.Tools[0].Name != name || s.Tools[0].Description != desc {
			t.Fatalf("captured %+v, served %q %q", s.Tools, name, desc)
		}
		mcp.SchemaSHA256(s.Tools[0].InputSchema)
	})
}
