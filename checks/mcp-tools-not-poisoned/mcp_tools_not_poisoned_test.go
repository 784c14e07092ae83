package mcptoolsnotpoisoned_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	mcptoolsnotpoisoned "github.com/metahub-ai/attest/checks/mcp-tools-not-poisoned"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, mcptoolsnotpoisoned.Check, "testdata") }
