package reach_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/resolve"
)

func graph(t *testing.T, kind resolve.Kind, files map[string]string) *reach.Graph {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return reach.Of(checktest.Load(t, dir, kind))
}

func TestReach(t *testing.T) {
	for _, tc := range []struct {
		name        string
		kind        resolve.Kind
		files       map[string]string
		reachable   []string
		unreachable []string // provably
		unresolved  bool
	}{
		{
			name: "js imports from main",
			kind: resolve.KindMCP,
			files: map[string]string{
				"package.json":     `{"name":"x","version":"1.0.0","main":"index.js"}`,
				"index.js":         "const a = require(\"./lib/a\");\n",
				"lib/a.js":         "import { b } from \"./b.js\";\nexport * from \"../shared\";\n",
				"lib/b.ts":         "export const b = 1;\n",
				"shared/index.ts":  "export const s = 2;\n",
				"tests/helpers.js": "eval(x);\n",
				"tools/gen.js":     "require('fs');\n",
			},
			reachable:   []string{"index.js", "lib/a.js", "lib/b.ts", "shared/index.ts"},
			unreachable: []string{"tests/helpers.js", "tools/gen.js"},
		},
		{
			name: "a tests/ file imported by the entry is reachable",
			kind: resolve.KindMCP,
			files: map[string]string{
				"package.json":     `{"name":"x","version":"1.0.0","main":"index.js"}`,
				"index.js":         "require(\"./tests/helpers\");\n",
				"tests/helpers.js": "eval(x);\n",
			},
			reachable: []string{"tests/helpers.js"},
		},
		{
			name: "a computed require leaves nothing provably unreachable",
			kind: resolve.KindMCP,
			files: map[string]string{
				"package.json": `{"name":"x","version":"1.0.0","main":"index.js"}`,
				"index.js":     "require(\"./plugins/\" + name);\n",
				"plugins/a.js": "eval(x);\n",
			},
			reachable:  []string{"index.js"},
			unresolved: true,
		},
		{
			name: "an entry built at install leaves nothing provably unreachable",
			kind: resolve.KindMCP,
			files: map[string]string{
				"package.json": `{"name":"x","version":"1.0.0","main":"dist/index.js"}`,
				"src/index.ts": "export {};\n",
			},
			unresolved: true,
		},
		{
			name: "test runner's files",
			kind: resolve.KindMCP,
			files: map[string]string{
				"package.json":          `{"name":"x","version":"1.0.0","main":"index.js","scripts":{"test":"jest"}}`,
				"index.js":              "module.exports = 1;\n",
				"src/__tests__/a.js":    "eval(x);\n",
				"src/util.test.ts":      "eval(x);\n",
				"fixtures/data.js":      "eval(x);\n",
				"scripts/release.sh":    "npm publish\n",
				"scripts/unused-too.js": "1;\n",
			},
			reachable:   []string{"src/__tests__/a.js", "src/util.test.ts"},
			unreachable: []string{"fixtures/data.js", "scripts/release.sh"},
		},
		{
			name: "python imports from a console script",
			kind: resolve.KindMCP,
			files: map[string]string{
				"pyproject.toml":       "[project]\nname = \"x\"\nversion = \"1.0.0\"\n[project.scripts]\nx = \"pkg.cli:main\"\n",
				"pkg/__init__.py":      "",
				"pkg/cli.py":           "from .util import helper\nimport pkg.extra\nfrom pkg import sub\n",
				"pkg/util.py":          "def helper(): pass\n",
				"pkg/extra.py":         "X = 1\n",
				"pkg/sub.py":           "Y = 1\n",
				"pkg/orphan.py":        "exec(x)\n",
				"tests/test_cli.py":    "import pkg\n",
				"tests/other_check.py": "import pkg\n",
			},
			reachable:   []string{"pkg/cli.py", "pkg/util.py", "pkg/extra.py", "pkg/sub.py"},
			unreachable: []string{"pkg/orphan.py", "tests/test_cli.py"},
		},
		{
			name: "pytest configuration makes test files roots",
			kind: resolve.KindMCP,
			files: map[string]string{
				"pyproject.toml":    "[project]\nname = \"x\"\nversion = \"1.0.0\"\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
				"tests/test_cli.py": "from tests import helper\n",
				"tests/helper.py":   "exec(x)\n",
			},
			reachable: []string{"tests/test_cli.py", "tests/helper.py"},
		},
		{
			name: "a computed importlib call",
			kind: resolve.KindMCP,
			files: map[string]string{
				"pyproject.toml": "[project]\nname = \"x\"\nversion = \"1.0.0\"\n[project.scripts]\nx = \"cli:main\"\n",
				"cli.py":         "import importlib\nimportlib.import_module(name)\n",
				"plugin.py":      "exec(x)\n",
			},
			reachable:  []string{"cli.py"},
			unresolved: true,
		},
		{
			name: "files a skill names, and what they load",
			kind: resolve.KindSkill,
			files: map[string]string{
				"SKILL.md":             "---\nname: x\ndescription: y\n---\nRun `python scripts/fill.py form.pdf`, then read [the guide](reference/forms.md).\n",
				"scripts/fill.py":      "import helper\n",
				"scripts/helper.py":    "X = 1\n",
				"scripts/setup.sh":     "source ./lib.sh\n",
				"scripts/lib.sh":       "echo\n",
				"scripts/unused.py":    "exec(x)\n",
				"reference/forms.md":   "# Forms\n",
				"reference/unnamed.md": "# Other\n",
			},
			reachable:   []string{"scripts/fill.py", "scripts/helper.py", "reference/forms.md"},
			unreachable: []string{"scripts/unused.py", "scripts/setup.sh"},
		},
		{
			name: "hooks run scripts, which source others",
			kind: resolve.KindPlugin,
			files: map[string]string{
				".claude-plugin/plugin.json": `{"name":"x","version":"1.0.0"}`,
				"hooks/hooks.json":           `{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/run.sh"}]}]}}`,
				"hooks/run.sh":               "#!/bin/sh\n. hooks/lib.sh\nbash \"$DIR/other.sh\"\n",
				"hooks/lib.sh":               "echo\n",
			},
			reachable:  []string{"hooks/run.sh", "hooks/lib.sh"},
			unresolved: true, // bash "$DIR/other.sh"
		},
		{
			name: "scripts run directly: a __main__ guard, a shebang",
			kind: resolve.KindMCP,
			files: map[string]string{
				"requirements.txt": "mcp==1.9.0\n",
				"server.py":        "import helpers\nif __name__ == \"__main__\":\n    main()\n",
				"helpers.py":       "X = 1\n",
				"tools/run":        "#!/bin/sh\necho\n",
				"lib/unused.py":    "exec(x)\n",
			},
			reachable:   []string{"server.py", "helpers.py", "tools/run"},
			unreachable: []string{"lib/unused.py"},
		},
		{
			name: "go main package and its module's imports",
			kind: resolve.KindMCP,
			files: map[string]string{
				"go.mod":              "module example.com/srv\n\ngo 1.22\n",
				"cmd/srv/main.go":     "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/srv/internal/tools\"\n)\n\nfunc main() { fmt.Println(tools.X) }\n",
				"internal/tools/x.go": "package tools\n\nconst X = 1\n",
				"internal/other/y.go": "package other\n",
			},
			reachable:   []string{"cmd/srv/main.go", "internal/tools/x.go"},
			unreachable: []string{"internal/other/y.go"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graph(t, tc.kind, tc.files)
			for _, p := range tc.reachable {
				if _, ok := g.Reachable(p); !ok {
					t.Errorf("%s not reachable; reachable: %v; unresolved: %v", p, g.Files(), g.Unresolved)
				}
			}
			for _, p := range tc.unreachable {
				if !g.ProvablyUnreachable(p) {
					how, _ := g.Reachable(p)
					t.Errorf("%s not provably unreachable (%q; unresolved %v)", p, how, g.Unresolved)
				}
			}
			if got := len(g.Unresolved) > 0; got != tc.unresolved {
				t.Errorf("unresolved loads %v, want any: %v", g.Unresolved, tc.unresolved)
			}
			if tc.unresolved {
				for p := range tc.files {
					if g.ProvablyUnreachable(p) {
						t.Errorf("%s provably unreachable despite an unresolved load", p)
					}
				}
			}
		})
	}
}

// What the model reads, what a client or npm runs from a configuration,
// and a script with one stray byte are reachable, and say how.
func TestDescribeEntries(t *testing.T) {
	for _, tc := range []struct {
		kind  resolve.Kind
		files map[string]string
		want  map[string]string
	}{
		{resolve.KindSkill, map[string]string{"SKILL.md": "---\nname: x\ndescription: y\n---\nRun `python tool.py`.\n", "tool.py": "print(1)\n"},
			map[string]string{"SKILL.md": "reachable: the model reads it", "tool.py": "reachable: SKILL.md names it"}},
		{resolve.KindMCP, map[string]string{".mcp.json": `{"mcpServers":{"a":{"command":"npx","args":["-y","x"]}}}`},
			map[string]string{".mcp.json": "reachable: an MCP client configuration"}},
		{resolve.KindMCP, map[string]string{"package.json": `{"name":"x","version":"1.0.0","scripts":{"postinstall":"node -e 1"}}`},
			map[string]string{"package.json": "reachable: npm runs its scripts"}},
		{resolve.KindMCP, map[string]string{"requirements.txt": "mcp==1.9.0\n", "server.py": "# \x00\nif __name__ == \"__main__\":\n    main()\n"},
			map[string]string{"server.py": "reachable: a Python script"}},
	} {
		g := graph(t, tc.kind, tc.files)
		for p, want := range tc.want {
			if got := g.Describe(p); !strings.HasPrefix(got, want) {
				t.Errorf("Describe(%s) = %q, want %q…", p, got, want)
			}
		}
	}
}

func TestDescribe(t *testing.T) {
	g := graph(t, resolve.KindMCP, map[string]string{
		"package.json": `{"name":"x","version":"1.0.0","main":"index.js"}`,
		"index.js":     "require(\"./a\");\n",
		"a.js":         "1;\n",
		"b.js":         "1;\n",
	})
	for p, want := range map[string]string{
		"index.js": "reachable: package.json main",
		"a.js":     "reachable: loaded by index.js",
		"b.js":     "not reachable",
	} {
		if got := g.Describe(p); !strings.HasPrefix(got, want) {
			t.Errorf("Describe(%s) = %q, want %q…", p, got, want)
		}
	}
}

func TestAnnotate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x","version":"1.0.0","main":"index.js"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "index.js"), []byte("eval(x);\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "old.js"), []byte("eval(x);\n"), 0o644)
	s := checktest.Load(t, dir, resolve.KindMCP)
	ev := reach.Annotate(s, []checks.Evidence{
		checks.At("index.js", 1, 1, "eval"),
		checks.At("old.js", 1, 1, "eval"),
		checks.At("a.zip!/x.js", 1, 1, "eval"),
		checks.Metric("n", 1, "files"),
	})
	for i, want := range []string{"eval (reachable: package.json main)", "eval (not reachable from any entry, script, hook, test runner or instruction)", "eval (inside the archive a.zip)", ""} {
		if ev[i].Message != want {
			t.Errorf("evidence %d: %q, want %q", i, ev[i].Message, want)
		}
	}
}

// FuzzReach builds the graph of a tree whose code and documents are
// arbitrary: it must neither panic nor claim a file the entry loads is
// unreachable.
func FuzzReach(f *testing.F) {
	f.Add("require('./a')", "import a.b\nfrom . import c", "source ./x.sh", "Run `scripts/a.py`")
	f.Add("import(x); export * from '../../../../etc'", "from ...... import x", ". $HOME/x", "[a](../../b)")
	f.Fuzz(func(t *testing.T, js, py, sh, md string) {
		dir := t.TempDir()
		for p, c := range map[string]string{
			"package.json": `{"name":"x","version":"1.0.0","main":"index.js"}`,
			"index.js":     js, "a.js": js, "m.py": py, "run.sh": sh, "README.md": md,
		} {
			os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
		}
		g := reach.Of(checktest.Load(t, dir, resolve.KindMCP))
		if _, ok := g.Reachable("index.js"); !ok {
			t.Fatal("the entry itself is not reachable")
		}
		for _, p := range g.Files() {
			if strings.Contains(p, "..") || strings.HasPrefix(p, "/") {
				t.Fatalf("reachable path outside the tree: %q", p)
			}
		}
	})
}
