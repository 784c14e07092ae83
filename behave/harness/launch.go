package harness

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
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
	return nil
}
