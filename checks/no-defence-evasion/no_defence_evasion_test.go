package nodefenceevasion_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nodefenceevasion "github.com/metahub-ai/attest/checks/no-defence-evasion"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nodefenceevasion.Check, "testdata") }
