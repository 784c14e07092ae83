package manifest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Fuzz targets: parse; return on error; else use every accessor and check
// positions are sane. JSON is also checked against encoding/json.

func checkPos(t *testing.T, p Pos) {
	if p.Line < 0 || p.Col < 0 {
		t.Fatalf("bad position %v", p)
	}
}

func walkJSON(t *testing.T, v *JSON, depth int) {
	if v == nil {
		return
	}
	checkPos(t, v.Pos)
	_, _ = v.String()
	_ = v.Strings()
	for _, it := range v.Items {
		walkJSON(t, it, depth+1)
	}
	for _, m := range v.Members {
		checkPos(t, m.KeyPos)
		_ = v.Get(m.Key)
		walkJSON(t, m.Value, depth+1)
	}
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"a":true}`, "\xef\xbb\xbf[]", `{"x":"\u00e9"}`, `[[[[`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ParseJSON(data)
		trimmed := bytes.TrimPrefix(data, bom)
		if err != nil {
			if json.Valid(trimmed) && len(data) <= MaxManifestBytes && bytes.Count(trimmed, []byte("[")) < MaxJSONDepth && bytes.Count(trimmed, []byte("{")) < MaxJSONDepth {
				t.Fatalf("rejected valid JSON: %v", err)
			}
			return
		}
		if !json.Valid(trimmed) {
			t.Fatalf("accepted invalid JSON")
		}
		walkJSON(t, doc.Root, 0)
	})
}

func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{"---\nname: a\ndescription: b\n---\nbody", "---\na: &x [1]\nb: *x\n---\n", "---\n- 1\n---", "---\r\nk: v\r\n...\r\n", "---\n--- x\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := ParseFrontmatter(data)
		if err != nil {
			return
		}
		for _, k := range fm.Keys {
			checkPos(t, k.Pos)
			_, _, _ = fm.String(k.Name)
		}
		if fm.BodyOffset > len(data) || fm.BodyLine < 2 {
			t.Fatalf("body at %d line %d", fm.BodyOffset, fm.BodyLine)
		}
	})
}

func FuzzTOML(f *testing.F) {
	for _, s := range []string{"[project]\nname = \"x\"\n[project.scripts]\na = \"b:c\"\n", "a = [[1], {b = 2}]", "[[bin]]\npath='x'"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if doc, err := ParseTOML(data); err == nil {
			for k := range doc.keys {
				checkPos(t, doc.Pos(k))
				_ = doc.Get(k)
			}
		}
	})
}

func FuzzPyproject(f *testing.F) {
	f.Add([]byte("[project]\nname = \"x\"\nversion = \"1\"\ndependencies = [\"mcp>=1\"]\n[project.scripts]\nx = \"a:b\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := ParsePyproject(data); err == nil {
			for _, d := range p.Dependencies {
				checkPos(t, d.Pos)
			}
		}
	})
}

func FuzzCargo(f *testing.F) {
	f.Add([]byte("[package]\nname = \"x\"\n[[bin]]\nname = \"y\"\n[dependencies]\nrmcp = { version = \"1\" }\n"))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseCargo(data) })
}

func FuzzRequirements(f *testing.F) {
	f.Add([]byte("mcp[cli]==1 ; x\n-r a.txt\nb @ https://x\n\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := ParseRequirements(data); err == nil {
			for _, q := range r.Requirements {
				if q.Pos.Line < 1 {
					t.Fatalf("line %d", q.Pos.Line)
				}
				_ = r.Has(q.Name)
			}
		}
	})
}

func FuzzGoMod(f *testing.F) {
	f.Add([]byte("module x\n\nrequire (\n\ta v1.0.0\n)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if g, err := ParseGoMod(data); err == nil {
			for _, r := range g.Requires {
				_ = g.Require(r.Name)
			}
		}
	})
}

func FuzzPackageJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a","bin":{"a":"b"},"exports":{".":{"import":{"default":"./x.js"}}},"files":["a"],"workspaces":{"packages":["p/*"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := ParsePackageJSON(data); err == nil {
			_ = p.ScriptNames()
			_ = p.HasDependency("x")
		}
	})
}

func FuzzPlugin(f *testing.F) {
	f.Add([]byte(`{"name":"p","commands":"./c","hooks":{"Stop":[]},"mcpServers":"./.mcp.json"}`))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParsePlugin(data) })
}

func FuzzHooks(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"x"}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseHooks(data) })
}

func FuzzAgentJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a","instructions":"b","entry":"c"}`))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseAgentJSON(data) })
}

func FuzzMCPConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"b","args":["c"],"url":"d"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseMCPConfig(data) })
}

func FuzzServerJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a/b","version_detail":{"version":"1"},"packages":[{"registry_name":"npm","name":"x"}],"remotes":[{"url":"u"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseServerJSON(data) })
}

func FuzzYAML(f *testing.F) {
	f.Add([]byte("on: push\njobs:\n  a:\n    steps:\n      - run: echo hi\n"))
	f.Add([]byte("a: &a [1]\nb: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = ParseYAML(data) })
}
