// Package surface gives the checks and the report one MCP surface per
// run: a snapshot attached by the caller (attest run --surface), or the
// surface discovered statically from the subject's code, parsed once with
// the code checks.
package surface

import (
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Attach sets the subject's surface to a captured one; it must be called
// before any check runs.
func Attach(s *resolve.Subject, snap *mcp.Surface) { files.AttachSurface(s, snap) }

// Of returns the subject's surface: the attached snapshot, or the one
// declared by its source, discovered once per run.
func Of(s *resolve.Subject) *mcp.Surface { return files.Surface(s) }

// IsTest reports whether a registration's file is a test: a tool a test
// registers is not one the server serves, so the surface record and the
// description checks leave it out (the poisoning checks still read it).
func IsTest(p string) bool {
	base := path.Base(p)
	return strings.Contains("/"+p, "/__tests__/") || strings.Contains("/"+p, "/tests/") || strings.Contains("/"+p, "/test/") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") || strings.HasSuffix(base, "_test.py") || strings.HasSuffix(base, "_test.go")
}

// At is the evidence for a finding at a registration: its file and line,
// or, for a captured surface, which has no source, the message alone.
func At(site mcp.Site, msg string) checks.Evidence {
	if site.File == "" {
		return checks.Evidence{Type: checks.EvidenceFile, Message: msg + " (captured surface)"}
	}
	return checks.At(site.File, site.Line, 0, msg)
}
