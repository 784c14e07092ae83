package noremoteshell_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noremoteshell "github.com/metahub-ai/attest/checks/no-remote-shell"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noremoteshell.Check, "testdata") }
