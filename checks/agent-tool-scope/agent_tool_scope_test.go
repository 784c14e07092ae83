package agenttoolscope_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	agenttoolscope "github.com/metahub-ai/attest/checks/agent-tool-scope"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, agenttoolscope.Check, "testdata") }
