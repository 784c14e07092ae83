package mcptooldescriptions_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcptooldescriptions "github.com/metahub-ai/attest/checks/mcp-tool-descriptions"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcptooldescriptions.Check, "testdata") }
