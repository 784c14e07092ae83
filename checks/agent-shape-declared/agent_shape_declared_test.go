package agentshapedeclared_test

import (
	"testing"

	agentshapedeclared "github.com/metahub-ai/attest/checks/agent-shape-declared"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, agentshapedeclared.Check, "testdata") }

// Every agent file is judged, not the first: the broken one is named.
func TestNamesTheBrokenAgent(t *testing.T) {
	r := checktest.Run(t, agentshapedeclared.Check, checktest.Load(t, "testdata/pos/fail-agent-second-broken", resolve.KindAgent))
	if len(r.Evidence) != 1 || r.Evidence[0].Path != "agents/deployer.md" {
		t.Fatalf("evidence %+v, want agents/deployer.md", r.Evidence)
	}
}
