package noprivilegeescalation_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noprivilegeescalation "github.com/metahub-ai/attest/checks/no-privilege-escalation"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noprivilegeescalation.Check, "testdata") }
