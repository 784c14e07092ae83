package policy

import (
	"testing"

	"github.com/metahub-ai/attest/checks"
)

// Waiver paths are doublestar globs: "**/.env" matches a .env at any
// depth (path.Match took it and matched nothing), "vendor/**" a subtree.
func TestWaiverPathGlobs(t *testing.T) {
	at := func(p string) []checks.Evidence { return []checks.Evidence{{Type: checks.EvidenceFile, Path: p}} }
	for _, c := range []struct {
		pattern, file string
		want          bool
	}{
		{"**/.env", ".env", true},
		{"**/.env", "config/dev/.env", true},
		{"**/.env", "config/.envrc", false},
		{"vendor/**", "vendor/a/b.js", true},
		{"vendor/**", "src/vendor.js", false},
		{"scripts/*.py", "scripts/x.py", true},
		{"scripts/*.py", "scripts/sub/x.py", false},
	} {
		if got := coversEvidence([]string{c.pattern}, at(c.file)); got != c.want {
			t.Errorf("%s on %s: %v, want %v", c.pattern, c.file, got, c.want)
		}
	}
}
