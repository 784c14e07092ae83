package nopersistence_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nopersistence "github.com/metahub-ai/attest/checks/no-persistence"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nopersistence.Check, "testdata") }
