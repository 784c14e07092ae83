package skillfrontmatter_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	skillfrontmatter "github.com/metahub-ai/attest/checks/skill-frontmatter"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) {
	checktest.Verify(t, skillfrontmatter.Check, "testdata")
}

func TestEvidenceLines(t *testing.T) {
	for fixture, line := range map[string]int{
		"testdata/pos/fail-skill-no-frontmatter":  1,
		"testdata/pos/fail-skill-name-not-string": 2,
		"testdata/pos/fail-skill-second-document": 4,
		"testdata/pos/fail-skill-empty-name":      2,
	} {
		r := checktest.Run(t, skillfrontmatter.Check, checktest.Load(t, fixture, resolve.KindSkill))
		if len(r.Evidence) == 0 || r.Evidence[0].Line != line || r.Evidence[0].Path != "SKILL.md" {
			t.Errorf("%s: evidence %+v, want SKILL.md:%d", fixture, r.Evidence, line)
		}
	}
}
