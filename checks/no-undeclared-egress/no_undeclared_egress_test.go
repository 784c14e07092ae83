package noundeclaredegress_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noundeclaredegress "github.com/metahub-ai/attest/checks/no-undeclared-egress"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noundeclaredegress.Check, "testdata") }
