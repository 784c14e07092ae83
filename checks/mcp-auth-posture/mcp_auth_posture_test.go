package mcpauthposture_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpauthposture "github.com/metahub-ai/attest/checks/mcp-auth-posture"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpauthposture.Check, "testdata") }
