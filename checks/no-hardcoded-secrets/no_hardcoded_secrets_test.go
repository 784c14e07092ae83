package nohardcodedsecrets_test

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nohardcodedsecrets "github.com/metahub-ai/attest/checks/no-hardcoded-secrets"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nohardcodedsecrets.Check, "testdata") }

func TestNeverQuotesTheValue(t *testing.T) {
	vals := checktest.Placeholders()
	r := checktest.Run(t, nohardcodedsecrets.Check, checktest.Load(t, "testdata/pos/fail-skill-gh-token-example-comment", resolve.KindSkill))
	text := r.Summary
	for _, e := range r.Evidence {
		text += e.Message + e.Path
	}
	if strings.Contains(text, vals["@@GH_TOKEN@@"][8:]) {
		t.Fatal("the secret reached the result")
	}
	if r.Evidence[0].Line != 2 || r.Evidence[0].Column == 0 {
		t.Errorf("evidence %+v", r.Evidence[0])
	}
}
