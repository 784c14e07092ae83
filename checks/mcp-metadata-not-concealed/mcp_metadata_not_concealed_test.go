package mcpmetadatanotconcealed_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcpmetadatanotconcealed "github.com/metahub-ai/attest/checks/mcp-metadata-not-concealed"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcpmetadatanotconcealed.Check, "testdata") }
