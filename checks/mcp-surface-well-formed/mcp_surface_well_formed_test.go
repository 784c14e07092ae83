package mcpsurfacewellformed_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpsurfacewellformed "github.com/metahub-ai/attest/checks/mcp-surface-well-formed"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpsurfacewellformed.Check, "testdata") }
