package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// LaunchFor finds how an MCP server in dir starts, without installing or
// building anything: a package.json bin or main run with node, a Python
// server file run with python3. nil when none is found.
func LaunchFor(dir string) []string {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	exists := func(p string) bool {
		st, err := root.Stat(p)
		return err == nil && st.Mode().IsRegular()
	}
	if data, err := root.ReadFile("package.json"); err == nil && len(data) < 1<<20 {
		var pkg struct {
			Main string          `json:"main"`
			Bin  json.RawMessage `json:"bin"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			var bin string
			var bins map[string]string
			if json.Unmarshal(pkg.Bin, &bin) != nil && json.Unmarshal(pkg.Bin, &bins) == nil {
				for _, v := range bins {
					if bin == "" || v < bin {
						bin = v
					}
				}
			}
			for _, p := range []string{bin, pkg.Main, "dist/index.js", "build/index.js", "index.js"} {
				if p = path.Clean(strings.TrimPrefix(p, "./")); p != "." && !strings.HasPrefix(p, "..") && exists(p) {
					return []string{"node", "/artifact/" + p}
				}
			}
		}
	}
	for _, p := range []string{"server.py", "main.py", "src/server.py", "mcp_server.py", "__main__.py"} {
		if exists(p) {
			return []string{"python3", "/artifact/" + filepath.ToSlash(p)}
		}
	}
	// A [project.scripts] entry point, module:function, imported from the
	// artifact's src/ or root as an installed script would run it.
	if data, err := root.ReadFile("pyproject.toml"); err == nil && len(data) < 1<<20 {
		if p, err := manifest.ParsePyproject(data); err == nil && len(p.Scripts) > 0 {
			mod, fn, ok := strings.Cut(p.Scripts[0].Path, ":")
			if ok && entryName.Re().MatchString(mod) && entryName.Re().MatchString(fn) {
				return []string{"python3", "-c", fmt.Sprintf("import sys; sys.path[:0] = ['/artifact/src', '/artifact']; from %s import %s; sys.exit(%s())", mod, fn, fn)}
			}
		}
	}
	return nil
}

// entryName is a dotted Python name, nothing that could be code.
var entryName = lex.Lazy(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// LaunchHint says why no way to start the server was found.
func LaunchHint(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err == nil && len(data) < 1<<20 {
		var pkg struct {
			Main string `json:"main"`
		}
		if json.Unmarshal(data, &pkg) == nil && pkg.Main != "" {
			return fmt.Sprintf("package.json's main %s is not in the artifact (a build output: attest does not build, since building runs the artifact's code); name a command with --mcp-command", pkg.Main)
		}
	}
	return "no way to start the server was found (a package.json main or bin, a Python server file or [project.scripts] entry); name one with --mcp-command"
}
