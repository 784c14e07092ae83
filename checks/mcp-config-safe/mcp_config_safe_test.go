package mcpconfigsafe_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpconfigsafe "github.com/metahub-ai/attest/checks/mcp-config-safe"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpconfigsafe.Check, "testdata") }
