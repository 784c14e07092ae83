package nobundledbinaries_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nobundledbinaries "github.com/metahub-ai/attest/checks/no-bundled-binaries"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nobundledbinaries.Check, "testdata") }
