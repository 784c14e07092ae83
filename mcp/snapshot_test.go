package mcp

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSnapshot(t *testing.T) {
	for name, src := range map[string]string{
		"tools/list result": `{"tools":[{"name":"b","description":"B."},{"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"File path","enum":["x"]}}}}]}`,
		"JSON-RPC response": `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"A.","inputSchema":{"properties":{"path":{"description":"File path","enum":["x"]}},"type":"object"}},{"name":"b","description":"B."}]}}`,
		"a capture of several calls": `[{"jsonrpc":"2.0","id":0,"result":{"instructions":"Use a first."}},
			{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"path":{"description":"File path","enum":["x"]}}}},{"name":"b","description":"B."}]}},
			{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"p","description":"P.","arguments":[{"name":"q","description":"Q."}]}]}},
			{"jsonrpc":"2.0","id":3,"result":{"resourceTemplates":[{"name":"r","uriTemplate":"file:///{path}","description":"R."}]}}]`,
	} {
		s, err := ParseSnapshot([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Origin != Snapshot || len(s.Tools) != 2 || s.Tools[0].Name != "a" || s.Tools[1].Name != "b" {
			t.Fatalf("%s: %+v", name, s)
		}
		if ps := s.Tools[0].Params; len(ps) != 1 || ps[0].Name != "path" || ps[0].Description != "File path" || len(ps[0].Values) != 1 {
			t.Errorf("%s: params %+v", name, ps)
		}
		if SchemaSHA256(s.Tools[0].InputSchema) == "" {
			t.Errorf("%s: no schema digest", name)
		}
	}
	a, _ := ParseSnapshot([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}]}`))
	b, _ := ParseSnapshot([]byte(`{"tools":[{"name":"a","inputSchema":{"properties":{"x":{"type":"string"}},"type":"object"}}]}`))
	c, _ := ParseSnapshot([]byte(`{"tools":[{"name":"a","inputSchema":{"properties":{"x":{"type":"number"}},"type":"object"}}]}`))
	if SchemaSHA256(a.Tools[0].InputSchema) != SchemaSHA256(b.Tools[0].InputSchema) || SchemaSHA256(a.Tools[0].InputSchema) == SchemaSHA256(c.Tools[0].InputSchema) {
		t.Error("schema digests are not canonical")
	}
	if SHA256Text("Reads a file.") == SHA256Text("Reads a file.\u200b") {
		t.Error("an invisible character must change the description digest")
	}
	s, _ := ParseSnapshot([]byte(`[{"result":{"instructions":"Use a first."}},{"result":{"prompts":[{"name":"p","arguments":[{"name":"q","description":"Q."}]}]}}]`))
	if s.Instructions != "Use a first." || len(s.Prompts) != 1 || s.Prompts[0].Arguments[0].Description != "Q." {
		t.Errorf("instructions and prompts: %+v", s)
	}
}

func TestParseSnapshotRejects(t *testing.T) {
	for name, c := range map[string]struct {
		src  string
		want string
	}{
		"not a surface": {`{"name":"x","version":"1.0.0"}`, "not an MCP surface"},
		"not JSON":      {`tools: []`, "snapshot:"},
		"too deep":      {`{"tools":[{"name":"a","inputSchema":` + strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100) + `}]}`, "deeper than"},
		"too large":     {`{"tools":[{"name":"` + strings.Repeat("a", MaxSnapshotBytes) + `"}]}`, "over the"},
	} {
		_, err := ParseSnapshot([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, c.want)
		}
	}
	if _, err := ParseSnapshot([]byte(`{}`)); !errors.Is(err, ErrNotSnapshot) {
		t.Errorf("{}: %v", err)
	}
}

func FuzzParseSnapshot(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"p":{"description":"x","enum":["y"]}}}}]}`))
	f.Add([]byte(`[{"result":{"prompts":[{"name":"p","arguments":[{"name":"q"}]}]}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSnapshot(data)
		if err != nil {
			return
		}
		for _, tool := range s.Tools {
			SchemaSHA256(tool.InputSchema)
		}
		s.Strings(func(kind, entry, field, text string, site Site) bool { return true })
	})
}
