package mcpsurfacestable_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpsurfacestable "github.com/metahub-ai/attest/checks/mcp-surface-stable"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpsurfacestable.Check, "testdata") }
