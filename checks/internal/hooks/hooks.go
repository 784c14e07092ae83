// Package hooks finds every hook an artifact ships (hooks/hooks.json, a
// plugin manifest's hooks, inline or by path, and shipped
// .claude/settings*.json files) and the scripts their commands run.
package hooks

import (
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Hook is one hook with the file that declares it.
type Hook struct {
	manifest.Hook
	File string
}

// All lists the artifact's hooks.
func All(s *resolve.Subject) []Hook {
	var out []Hook
	m := s.Manifests
	add := func(file string, hs []manifest.Hook) {
		for _, h := range hs {
			out = append(out, Hook{Hook: h, File: file})
		}
	}
	seen := map[string]bool{}
	for _, h := range m.Hooks {
		if h.Ok() {
			add(h.Path, h.V.Hooks)
			seen[h.Path] = true
		}
	}
	if p := m.Plugin; p.Ok() {
		if v := p.V.Inline["hooks"]; v != nil {
			events := v
			if inner := v.Get("hooks"); inner != nil {
				events = inner
			}
			add(p.Path, manifest.HooksFrom(events))
		}
		for _, ref := range p.V.Components["hooks"] {
			rel := path.Clean(strings.TrimPrefix(strings.TrimPrefix(ref.Value, "${CLAUDE_PLUGIN_ROOT}/"), "./"))
			if seen[rel] {
				continue
			}
			if data, ok := s.Inventory.Read(rel); ok {
				if h, err := manifest.ParseHooks(data); err == nil {
					add(rel, h.Hooks)
					seen[rel] = true
				}
			}
		}
	}
	for _, st := range m.Settings {
		if st.Ok() {
			add(st.Path, manifest.HooksFrom(st.V.Root.Get("hooks")))
		}
	}
	return out
}

var scriptRef = lex.Lazy(`(?:\$\{?CLAUDE_PLUGIN_ROOT\}?|\$\{?CLAUDE_PROJECT_DIR\}?|\.)?/?[\w./-]+\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl|ps1)\b`)

// Scripts lists the shipped files a command runs, resolved against the
// artifact root; missing lists referenced scripts that are not shipped.
func Scripts(inv *resolve.Inventory, command string) (found, missing []string) {
	for _, m := range scriptRef.Re().FindAllString(command, -1) {
		rel := m
		for _, p := range []string{"${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT", "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"} {
			rel = strings.TrimPrefix(rel, p)
		}
		rel = path.Clean(strings.TrimPrefix(rel, "/"))
		if strings.HasPrefix(rel, "../") || strings.HasPrefix(m, "/") && !strings.HasPrefix(m, "$") {
			continue
		}
		if _, ok := inv.File(rel); ok {
			found = append(found, rel)
		} else {
			missing = append(missing, rel)
		}
	}
	return found, missing
}
