package agentnohostileinstructions_test

import (
	"testing"

	agentnohostileinstructions "github.com/metahub-ai/attest/checks/agent-no-hostile-instructions"
	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, agentnohostileinstructions.Check, "testdata") }
