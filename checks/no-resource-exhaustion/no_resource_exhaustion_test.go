package noresourceexhaustion_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noresourceexhaustion "github.com/metahub-ai/attest/checks/no-resource-exhaustion"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noresourceexhaustion.Check, "testdata") }
