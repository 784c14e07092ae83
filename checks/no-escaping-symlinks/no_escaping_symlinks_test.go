package noescapingsymlinks_test

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noescapingsymlinks "github.com/metahub-ai/attest/checks/no-escaping-symlinks"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) {
	checktest.Verify(t, noescapingsymlinks.Check, "testdata")
}

func TestEvidenceShowsLinkAndTarget(t *testing.T) {
	r := checktest.Run(t, noescapingsymlinks.Check, checktest.Load(t, "testdata/pos/fail-skill-absolute", resolve.KindSkill))
	if len(r.Evidence) != 1 || r.Evidence[0].Path != "passwd.txt" || !strings.Contains(r.Evidence[0].Message, "passwd.txt -> /etc/passwd") {
		t.Fatalf("evidence %+v", r.Evidence)
	}
}
