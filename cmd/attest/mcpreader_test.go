package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestMCPServeSurvivesBadLines: one line that is not JSON, 100,000 nested
// arrays, an oversized line, a batch or a message of another JSON-RPC
// version each get a JSON-RPC error, and the server goes on answering the
// next request.
func TestMCPServeSurvivesBadLines(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcpServe(ctx, []string{"--root", t.TempDir()}, inR, outW) }()
	defer func() {
		inW.Close()
		cancel()
		<-done
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(line string) {
		t.Helper()
		go inW.Write([]byte(line + "\n"))
	}
	next := func() map[string]any {
		t.Helper()
		got := make(chan map[string]any, 1)
		go func() {
			var m map[string]any
			if lines.Scan() {
				json.Unmarshal(lines.Bytes(), &m)
			}
			got <- m
		}()
		select {
		case m := <-got:
			if m == nil {
				t.Fatal("the server stopped answering")
			}
			return m
		case <-ctx.Done():
			t.Fatal("no answer")
		}
		return nil
	}
	bad := []struct{ name, line string }{
		{"not JSON", "this is not json"},
		{"100,000 nested arrays", strings.Repeat("[", 100000) + strings.Repeat("]", 100000)},
		{"a line over the bound", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"` + strings.Repeat("x", mcpMaxMessage) + `"}}`},
		{"a batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`},
		{"another version", `{"jsonrpc":"1.0","id":4,"method":"ping"}`},
		{"a bare number", `42`},
	}
	for i, c := range bad {
		send(c.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || m["id"] != nil || (e["code"] != float64(jsonrpc.CodeParseError) && e["code"] != float64(jsonrpc.CodeInvalidRequest)) {
			t.Fatalf("%s: %v", c.name, m)
		}
		// Each bad line is followed by a request that must be answered.
		id := float64(100 + i)
		if i == 0 {
			send(`{"jsonrpc":"2.0","id":100,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if m := next(); m["id"] != id || m["result"] == nil {
				t.Fatalf("initialize after %s: %v", c.name, m)
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			continue
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 100+i))
		if m := next(); m["id"] != id || m["result"] == nil {
			t.Fatalf("tools/list after %s: %v", c.name, m)
		}
	}
}

// FuzzMCPMessageReader: whatever arrives on standard input, the reader
// never panics, passes on only lines that are one JSON-RPC message, and
// answers every other non-blank line with one JSON-RPC error.
func FuzzMCPMessageReader(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n[[[]]]\n\n"))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"))
	f.Add([]byte(strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n{\"a\":\"\\\"[[[\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var answers bytes.Buffer
		r := newMessageReader(io.NopCloser(bytes.NewReader(data)), &answers)
		passed, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range bytes.Split(passed, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			n++
			if _, err := jsonrpc.DecodeMessage(line); err != nil || depth(line) > mcpMaxDepth {
				t.Fatalf("passed on %q: %v", line, err)
			}
		}
		errs := 0
		for _, line := range bytes.Split(answers.Bytes(), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			errs++
			var m struct {
				ID    any `json:"id"`
				Error struct{ Code int }
			}
			if json.Unmarshal(line, &m) != nil || m.ID != nil || m.Error.Code >= 0 {
				t.Fatalf("answered %q", line)
			}
		}
		lines := 0
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				lines++
			}
		}
		if n+errs != lines {
			t.Fatalf("%d lines in, %d passed and %d answered", lines, n, errs)
		}
	})
}
