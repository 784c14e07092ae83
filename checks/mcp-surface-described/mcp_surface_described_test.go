package mcpsurfacedescribed_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpsurfacedescribed "github.com/metahub-ai/attest/checks/mcp-surface-described"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpsurfacedescribed.Check, "testdata") }
