package mcplaunchable_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcplaunchable "github.com/metahub-ai/attest/checks/mcp-launchable"
)

func TestFixtures(t *testing.T) {
	checktest.Verify(t, mcplaunchable.Check, "testdata")
}
