package noassembledcredentials_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noassembledcredentials "github.com/metahub-ai/attest/checks/no-assembled-credentials"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noassembledcredentials.Check, "testdata") }
