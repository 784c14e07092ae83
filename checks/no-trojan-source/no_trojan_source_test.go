package notrojansource_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	notrojansource "github.com/metahub-ai/attest/checks/no-trojan-source"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, notrojansource.Check, "testdata") }
