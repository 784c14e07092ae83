package nohostileshellcommands_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nohostileshellcommands "github.com/metahub-ai/attest/checks/no-hostile-shell-commands"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nohostileshellcommands.Check, "testdata") }

func TestEvidenceLines(t *testing.T) {
	for fx, want := range map[string][2]any{
		"testdata/pos/fail-skill-hook-wget-bash": {"hooks/setup.sh", 3},
		"testdata/pos/fail-mcp-dockerfile":       {"Dockerfile", 3},
		"testdata/pos/fail-mcp-package-script":   {"package.json", 4},
	} {
		kind := resolve.KindSkill
		if want[0] != "hooks/setup.sh" {
			kind = resolve.KindMCP
		}
		r := checktest.Run(t, nohostileshellcommands.Check, checktest.Load(t, fx, kind))
		if len(r.Evidence) == 0 || r.Evidence[0].Path != want[0] || r.Evidence[0].Line != want[1] {
			t.Errorf("%s: evidence %+v, want %v:%v", fx, r.Evidence, want[0], want[1])
		}
	}
}
