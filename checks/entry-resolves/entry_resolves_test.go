package entryresolves_test

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	entryresolves "github.com/metahub-ai/attest/checks/entry-resolves"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, entryresolves.Check, "testdata") }

// A source checkout's built entry passes with a note naming the build; the
// same tree from a registry tarball fails.
func TestBuildNoteAndRegistryProvenance(t *testing.T) {
	s := checktest.Load(t, "testdata/neg/mcp-tsc-outdir", resolve.KindMCP)
	r := checktest.Run(t, entryresolves.Check, s)
	if r.Status != checks.Pass || len(r.Evidence) == 0 || !strings.Contains(r.Evidence[0].Message, "built by tsc") {
		t.Fatalf("source checkout: %s %+v", r.Status, r.Evidence)
	}
	s.Source.Type = "npm"
	if r := checktest.Run(t, entryresolves.Check, s); r.Status != checks.Fail {
		t.Fatalf("registry tarball: status %s, want fail", r.Status)
	}
}
