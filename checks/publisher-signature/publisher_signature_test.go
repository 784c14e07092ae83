package publishersignature_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	publishersignature "github.com/metahub-ai/attest/checks/publisher-signature"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, publishersignature.Check, "testdata") }

// A file changed after signing is named; an unsigned extra file is counted.
func TestTamperedAfterSigning(t *testing.T) {
	dir := checktest.Materialize(t, "testdata/pos/warn-skill-signed-unverified")
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: signed\ndescription: changed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.py"), []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := checktest.Load(t, dir, resolve.KindSkill)
	r := checktest.Run(t, publishersignature.Check, s)
	var text []string
	for _, e := range r.Evidence {
		text = append(text, e.Path+": "+e.Message)
	}
	all := strings.Join(text, "\n")
	if r.Status != checks.Warn || !strings.Contains(all, "SKILL.md: changed since it was signed") || !strings.Contains(all, "1 file not covered") {
		t.Fatalf("status %s, evidence:\n%s", r.Status, all)
	}
}
