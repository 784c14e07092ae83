package skillallowedtools_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	skillallowedtools "github.com/metahub-ai/attest/checks/skill-allowed-tools"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, skillallowedtools.Check, "testdata") }
