package files

import (
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

type surfaceKey struct{}

// AttachSurface sets the subject's MCP surface to a captured one; it must
// be called before anything reads the surface.
func AttachSurface(s *resolve.Subject, snap *mcp.Surface) {
	s.Memo(surfaceKey{}, func() any { return snap })
}

// Surface returns the subject's MCP surface: the attached snapshot, or the
// one its source declares, discovered once per run.
func Surface(s *resolve.Subject) *mcp.Surface {
	PrefetchCode(s) // help parse rather than wait for whoever discovers
	return s.Memo(surfaceKey{}, func() any { return discover(s) }).(*mcp.Surface)
}

func discover(s *resolve.Subject) *mcp.Surface {
	var srcs []mcp.Source
	for f, parsed := range Code(s) {
		srcs = append(srcs, mcp.Source{Path: f.Path, Lang: parsed.Lang, Text: s.Text(f), Parsed: parsed})
	}
	for f := range Scan(s) {
		if IsText(f) && Language(f.Path, f.Content) == "go" {
			srcs = append(srcs, mcp.Source{Path: f.Path, Lang: "go", Text: s.Text(f)})
		}
	}
	return mcp.Discover(srcs)
}
