package nosecretexfiltration_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nosecretexfiltration "github.com/metahub-ai/attest/checks/no-secret-exfiltration"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nosecretexfiltration.Check, "testdata") }
