package licensepresent_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	licensepresent "github.com/metahub-ai/attest/checks/license-present"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, licensepresent.Check, "testdata") }
