package noinstallscripts_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noinstallscripts "github.com/metahub-ai/attest/checks/no-install-scripts"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noinstallscripts.Check, "testdata") }
