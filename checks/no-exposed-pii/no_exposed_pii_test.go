package noexposedpii_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noexposedpii "github.com/metahub-ai/attest/checks/no-exposed-pii"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noexposedpii.Check, "testdata") }

func TestFindsEachKind(t *testing.T) {
	r := checktest.Run(t, noexposedpii.Check, checktest.Load(t, "testdata/pos/warn-skill-customer-data", resolve.KindSkill))
	kinds := map[string]bool{}
	for _, e := range r.Evidence {
		kinds[e.Message] = true
	}
	for _, k := range []string{"US social security number", "payment card number", "IBAN"} {
		if !kinds[k] {
			t.Errorf("missing %s: %+v", k, r.Evidence)
		}
	}
}
