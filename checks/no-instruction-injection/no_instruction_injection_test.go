package noinstructioninjection_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noinstructioninjection "github.com/metahub-ai/attest/checks/no-instruction-injection"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noinstructioninjection.Check, "testdata") }
