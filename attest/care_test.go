package attest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/metahub-ai/attest/checks"
)

// TestCareNoiseOnPublicSkills evaluates every skill under
// ATTEST_PUBLIC_SKILLS (a local checkout of a public skills repository's
// skills/ directory; not committed, so the test is skipped without it) and
// fails when any care check warns on more than a third of them: a care
// warning that fires on most good skills is noise. docs/DETECTION.md
// records the figures for anthropics/skills.
func TestCareNoiseOnPublicSkills(t *testing.T) {
	root := os.Getenv("ATTEST_PUBLIC_SKILLS")
	if root == "" {
		t.Skip("set ATTEST_PUBLIC_SKILLS to a directory of skills")
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "SKILL.md"))
	if len(dirs) < 3 {
		t.Fatalf("%d skills under %s", len(dirs), root)
	}
	warns := map[string][]string{}
	for _, p := range dirs {
		dir := filepath.Dir(p)
		rep, err := Evaluate(t.Context(), dir, Options{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, r := range rep.Results {
			if r.Axis == checks.Care && r.Status == checks.Warn {
				warns[r.Check] = append(warns[r.Check], filepath.Base(dir))
			}
		}
	}
	for c, ws := range warns {
		t.Logf("%s warns on %d of %d: %v", c, len(ws), len(dirs), ws)
		if 3*len(ws) > len(dirs) {
			t.Errorf("%s warns on %d of %d skills, more than a third", c, len(ws), len(dirs))
		}
	}
}
