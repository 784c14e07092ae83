package pluginbundledeclared

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is plugin-bundle-declared.
var Check = &checks.Check{
	ID:          "plugin-bundle-declared",
	Version:     "1.0.0",
	Title:       "Plugin bundles components",
	Axis:        checks.Integrity,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindPlugin},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Count returns the number of bundled components.
func Count(s *resolve.Subject) int {
	n := 0
	for _, f := range s.Inventory.Files {
		dir, base := path.Split(f.Path)
		switch {
		case base == "SKILL.md" && strings.HasPrefix(dir, "skills/") && strings.Count(dir, "/") == 2,
			strings.HasSuffix(base, ".md") && (dir == "commands/" || dir == "agents/"),
			f.Path == "hooks/hooks.json":
			n++
		}
	}
	if m := s.Manifests.MCPConfig; m.Ok() {
		n += len(m.V.Servers)
	}
	if p := s.Manifests.Plugin; p.Ok() {
		for _, k := range []string{"commands", "agents", "skills", "hooks", "mcpServers"} {
			for _, e := range p.V.Components[k] {
				if !s.Inventory.Exists(strings.TrimPrefix(e.Value, "./")) || !defaultPlace(k, e.Value) {
					n++
				}
			}
			if v := p.V.Inline[k]; v != nil {
				n += len(v.Members)
			}
		}
	}
	return n
}

// defaultPlace reports whether a declared path is a default directory
// already counted above.
func defaultPlace(kind, p string) bool {
	p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	return p == kind || kind == "hooks" && p == "hooks/hooks.json" || kind == "mcpServers" && p == ".mcp.json"
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	n := Count(in.Subject)
	metric := checks.Metric("bundled_items", float64(n), "items")
	if n == 0 {
		return checks.Warning(0, "the plugin bundles no skills, commands, agents, hooks or MCP servers", metric), nil
	}
	return checks.Passed(fmt.Sprintf("bundles %s", checks.Plural(n, "component")), metric), nil
}
