package skillnohostileactions_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	skillnohostileactions "github.com/metahub-ai/attest/checks/skill-no-hostile-actions"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, skillnohostileactions.Check, "testdata") }
