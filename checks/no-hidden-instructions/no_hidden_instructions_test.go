package nohiddeninstructions_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nohiddeninstructions "github.com/metahub-ai/attest/checks/no-hidden-instructions"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nohiddeninstructions.Check, "testdata") }
