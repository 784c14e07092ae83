package mcpmoduletype_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpmoduletype "github.com/metahub-ai/attest/checks/mcp-module-type"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpmoduletype.Check, "testdata") }
