package installed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	for name, c := range map[string]struct {
		s      server
		target string
		note   string
	}{
		"npx pinned":   {server{Command: "npx", Args: []string{"-y", "@scope/pkg@1.2.3", "--port", "1"}}, "npm:@scope/pkg@1.2.3", ""},
		"npx unpinned": {server{Command: "npx", Args: []string{"-y", "pkg"}}, "npm:pkg", "no version pinned"},
		"uvx":          {server{Command: "uvx", Args: []string{"mcp-server-time==1.0.0"}}, "pypi:mcp-server-time==1.0.0", ""},
		"docker":       {server{Command: "docker", Args: []string{"run", "-i", "img"}}, "", "container"},
		"url":          {server{URL: "https://x.example/mcp"}, "", "remote server"},
		"vscode http":  {server{Type: "http", URL: "https://x.example/mcp"}, "", "remote server"},
		"unknown":      {server{Command: "something"}, "", "not resolvable"},
		"node script":  {server{Command: "node", Args: []string{"/opt/srv/dist/index.js"}}, "/opt/srv/dist", ""},
	} {
		a := describe("c", "user", "cfg", name, c.s)
		if a.Target != c.target || !strings.Contains(a.Note, c.note) {
			t.Errorf("%s: target %q note %q", name, a.Target, a.Note)
		}
	}
}

func TestJSONCAndPaths(t *testing.T) {
	raw, err := serversOf([]byte(`{
	  // servers
	  "servers": { "a": { "command": "npx", "args": ["-y", "a@1"], }, /* b */ },
	}`), "servers")
	var ss map[string]server
	if err != nil || json.Unmarshal(raw, &ss) != nil || ss["a"].Args[1] != "a@1" {
		t.Fatalf("%v %s", err, raw)
	}
	if s := string(jsoncStrip([]byte(`{"u": "http://x//y", "c": "/* not a comment */"}`))); s != `{"u": "http://x//y", "c": "/* not a comment */"}` {
		t.Errorf("strings changed: %s", s)
	}
	for goos, want := range map[string]string{"linux": "/h/.config/Claude/claude_desktop_config.json", "darwin": "/h/Library/Application Support/Claude/claude_desktop_config.json"} {
		if got := filepath.ToSlash((Env{Home: "/h", GOOS: goos}).claudeDesktopConfig()); got != want {
			t.Errorf("%s: %s", goos, got)
		}
	}
}

// Codex's TOML, Gemini's and Windsurf's JSON, and a broken file (named,
// the rest still found).
func TestFindOtherClients(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".codex"), 0o755)
	os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte("[mcp_servers.time]\ncommand = \"uvx\"\nargs = [\"mcp-server-time==1.0.0\"]\n"), 0o644)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"mcpServers": {"gh": {"httpUrl": "https://api.example/mcp"}}}`), 0o644)
	os.MkdirAll(filepath.Join(home, ".codeium", "windsurf"), 0o755)
	os.WriteFile(filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), []byte(`{"mcpServers": {`), 0o644)
	got, errs := Find(Env{Home: home, Project: t.TempDir(), GOOS: "linux"})
	var names []string
	for _, a := range got {
		names = append(names, a.Client+":"+a.Name)
	}
	if strings.Join(names, ",") != "codex:time,gemini:gh" || len(errs) != 1 || !strings.Contains(errs[0].Error(), "mcp_config.json") {
		t.Errorf("%v %v", names, errs)
	}
}

// FuzzServers: the configuration reader never panics.
func FuzzServers(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"a": {"command": "npx", "args": ["-y", "p@1"]}}}`), "mcpServers")
	f.Add([]byte(`{// c
	"servers": {"b": {"url": "https://x", },},}`), "servers")
	f.Add([]byte(`/*`), "x")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		raw, err := serversOf(data, key)
		if err != nil || len(raw) == 0 {
			return
		}
		var ss map[string]server
		if json.Unmarshal(raw, &ss) != nil {
			return
		}
		for n, s := range ss {
			describe("c", "user", "p", n, s)
		}
	})
}
