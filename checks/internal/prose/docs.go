package prose

import (
	"path"
	"strings"

	"github.com/metahub-ai/attest/resolve"
)

// Documents lists the documentation files of the subject's kind: the
// README at the root and, per kind, SKILL.md; PLUGIN.md; AGENT.md and the
// agent files; docs/*.md of an MCP server.
func Documents(s *resolve.Subject) []string {
	var out []string
	for i := range s.Inventory.Files {
		p := s.Inventory.Files[i].Path
		dir, base := path.Split(p)
		lower := strings.ToLower(base)
		ext := path.Ext(lower)
		if ext != ".md" && ext != ".markdown" && ext != ".rst" && ext != ".txt" && ext != "" {
			continue
		}
		switch {
		case dir == "" && (strings.HasPrefix(lower, "readme") || lower == "skill.md" || lower == "plugin.md" || lower == "agent.md"):
			out = append(out, p)
		case s.Kind == resolve.KindMCP && dir == "docs/" && (ext == ".md" || ext == ".markdown"):
			out = append(out, p)
		}
	}
	if s.Kind == resolve.KindAgent {
		for _, a := range s.Manifests.Agents {
			out = append(out, a.Path)
		}
	}
	return out
}

// Load parses a document of the subject, once per run.
func Load(s *resolve.Subject, p string) (Doc, bool) {
	f, ok := s.Inventory.File(p)
	if !ok || !f.Scanned {
		return Doc{}, false
	}
	return s.Memo(docKey{p}, func() any { return Parse(s.Text(f)) }).(Doc), true
}

type docKey struct{ path string }
