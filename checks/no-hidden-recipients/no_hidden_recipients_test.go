package nohiddenrecipients_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nohiddenrecipients "github.com/metahub-ai/attest/checks/no-hidden-recipients"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nohiddenrecipients.Check, "testdata") }
