package nocryptomining_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nocryptomining "github.com/metahub-ai/attest/checks/no-cryptomining"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nocryptomining.Check, "testdata") }
