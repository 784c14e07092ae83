package mcpresourcesnotpoisoned_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpresourcesnotpoisoned "github.com/metahub-ai/attest/checks/mcp-resources-not-poisoned"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpresourcesnotpoisoned.Check, "testdata") }
