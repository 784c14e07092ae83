package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeServer writes a small MCP server exposing tools.
func fakeServer(t *testing.T, dir string, tools ...string) string {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "`+filepath.Base(dir)+`", "version": "1.0.0", "type": "module", "description": "A small MCP server used as a test fixture for scanning.", "dependencies": {"@modelcontextprotocol/sdk": "1.17.0"}}`), 0o644)
	var b strings.Builder
	b.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nimport { StdioServerTransport } from \"@modelcontextprotocol/sdk/server/stdio.js\";\nimport { z } from \"zod\";\n\nconst server = new McpServer({ name: \"" + filepath.Base(dir) + "\", version: \"1.0.0\" });\n\n")
	for _, tl := range tools {
		fmt.Fprintf(&b, "server.tool(%q, \"Does %s.\", { input: z.string() }, async ({ input }) => ({ content: [{ type: \"text\", text: input }] }));\n\n", tl, tl)
	}
	b.WriteString("await server.connect(new StdioServerTransport());\n")
	p := filepath.Join(dir, "index.js")
	os.WriteFile(p, []byte(b.String()), 0o644)
	return p
}

func writeJSON(t *testing.T, p string, v any) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	b, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScanInstalled: a fake home with Claude Code, Cursor and Claude
// Desktop configurations; every artifact is found, the local ones are
// evaluated, and the planted lethal trifecta (a web fetcher in Cursor, a
// file reader in Claude Code, a message sender in Claude Desktop) is
// flagged as a finding about the set.
func TestScanInstalled(t *testing.T) {
	home := t.TempDir()
	project := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("ATTEST_CACHE_DIR", t.TempDir())
	copyDir(t, samples+"/pdf-forms", filepath.Join(home, ".claude", "skills", "pdf-forms"))
	t.Chdir(project)
	os.MkdirAll(filepath.Join(home, ".claude", "agents"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "agents", "reviewer.md"), []byte("---\nname: reviewer\ndescription: Reviews a diff for mistakes.\n---\nRead the diff and list mistakes.\n"), 0o644)
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "echo checked"}}}}}})
	files := fakeServer(t, filepath.Join(home, "servers", "files"), "read_file", "list_directory")
	web := fakeServer(t, filepath.Join(home, "servers", "web"), "fetch_url")
	slack := fakeServer(t, filepath.Join(home, "servers", "slack"), "send_message", "read_file")
	writeJSON(t, filepath.Join(home, ".claude.json"), map[string]any{"mcpServers": map[string]any{"files": map[string]any{"command": "node", "args": []string{files}}}})
	writeJSON(t, filepath.Join(home, ".cursor", "mcp.json"), map[string]any{"mcpServers": map[string]any{
		"web":    map[string]any{"command": "node", "args": []string{web}},
		"pkg":    map[string]any{"command": "npx", "args": []string{"-y", "@acme/thing@1.0.0"}},
		"remote": map[string]any{"url": "https://mcp.example.com/sse"},
	}})
	writeJSON(t, filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"), map[string]any{"mcpServers": map[string]any{"slack": map[string]any{"command": "node", "args": []string{slack}}}})
	writeJSON(t, filepath.Join(project, ".mcp.json"), map[string]any{"mcpServers": map[string]any{"proj-files": map[string]any{"command": "node", "args": []string{files}}}})

	r := attestCLI(t, nil, "scan", "--installed", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var res scanResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]scanned{}
	for _, s := range res.Artifacts {
		got[s.Client+"/"+s.Scope+"/"+s.Kind+"/"+s.Name] = s
	}
	for _, want := range []string{"claude-code/user/skill/pdf-forms", "claude-code/user/agent/reviewer", "claude-code/user/hook/PreToolUse",
		"claude-code/user/mcp/files", "claude-code/project/mcp/proj-files", "cursor/user/mcp/web", "cursor/user/mcp/pkg", "cursor/user/mcp/remote", "claude-desktop/user/mcp/slack"} {
		if _, ok := got[want]; !ok {
			t.Errorf("not found: %s", want)
		}
	}
	if s := got["claude-code/user/skill/pdf-forms"]; s.Verdict != "pass" {
		t.Errorf("the skill was not evaluated: %+v", s)
	}
	if s := got["cursor/user/mcp/pkg"]; s.Target != "npm:@acme/thing@1.0.0" || !strings.Contains(s.Error, "--net") {
		t.Errorf("npx server: %+v", s)
	}
	if s := got["cursor/user/mcp/remote"]; s.URL == "" || s.Verdict != "" {
		t.Errorf("remote server: %+v", s)
	}
	if s := got["cursor/user/mcp/web"]; len(s.Tools) != 1 || s.Tools[0] != "fetch_url" {
		t.Errorf("web server tools: %+v", s)
	}
	var toxic, shadow bool
	for _, f := range res.SetFindings {
		switch f.Kind {
		case "toxic-combination":
			toxic = strings.Contains(f.Summary, "across")
		case "tool-shadowing":
			shadow = shadow || strings.Contains(f.Summary, `"read_file"`)
		}
	}
	if !toxic || !shadow {
		t.Errorf("set findings: %+v", res.SetFindings)
	}
	// The table names the finding too.
	if r := attestCLI(t, nil, "scan", "--installed"); !strings.Contains(r.stdout, "toxic-combination: lethal trifecta") {
		t.Errorf("table:\n%s", r.stdout)
	}
	if r := attestCLI(t, nil, "scan"); r.code != 2 || !strings.Contains(r.stderr, "--installed") {
		t.Errorf("scan without --installed: exit %d", r.code)
	}
}
