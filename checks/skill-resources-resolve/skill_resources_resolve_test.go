package skillresourcesresolve_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	skillresourcesresolve "github.com/metahub-ai/attest/checks/skill-resources-resolve"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, skillresourcesresolve.Check, "testdata") }

// Missing references are found transitively, with file lines.
func TestTransitiveWithLines(t *testing.T) {
	r := checktest.Run(t, skillresourcesresolve.Check, checktest.Load(t, "testdata/pos/warn-skill-missing-script", resolve.KindSkill))
	want := map[string]int{"SKILL.md": 10, "reference/forms.md": 3}
	if len(r.Evidence) != len(want) {
		t.Fatalf("evidence %+v", r.Evidence)
	}
	for _, e := range r.Evidence {
		if want[e.Path] != e.Line {
			t.Errorf("%s:%d, want line %d (%s)", e.Path, e.Line, want[e.Path], e.Message)
		}
	}
}
