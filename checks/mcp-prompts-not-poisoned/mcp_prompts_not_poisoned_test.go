package mcppromptsnotpoisoned_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcppromptsnotpoisoned "github.com/metahub-ai/attest/checks/mcp-prompts-not-poisoned"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcppromptsnotpoisoned.Check, "testdata") }
