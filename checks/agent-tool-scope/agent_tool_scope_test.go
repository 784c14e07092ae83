package agenttoolscope_test

import (
	"testing"

	agenttoolscope "github.com/metahub-ai/attest/checks/agent-tool-scope"
	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, agenttoolscope.Check, "testdata") }
