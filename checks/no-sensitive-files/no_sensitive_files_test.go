package nosensitivefiles_test

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nosensitivefiles "github.com/metahub-ai/attest/checks/no-sensitive-files"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) {
	checktest.Verify(t, nosensitivefiles.Check, "testdata")
}

// The evidence names the path and never any part of the value.
func TestNeverQuotesTheSecret(t *testing.T) {
	vals := checktest.Placeholders()
	for _, fx := range []string{"testdata/pos/fail-skill-env-credential", "testdata/pos/fail-skill-npmrc-token", "testdata/pos/fail-skill-gitignored-private-key"} {
		r := checktest.Run(t, nosensitivefiles.Check, checktest.Load(t, fx, resolve.KindSkill))
		text := r.Summary + r.Detail
		for _, e := range r.Evidence {
			text += e.Path + e.Message
		}
		for _, secret := range []string{vals["@@GH_TOKEN@@"][4:], "PRIVATE KEY-----\nMC", "Vr7mQ2wLx9"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s: result quotes the secret: %q", fx, text)
			}
		}
		if len(r.Evidence) == 0 || r.Evidence[0].Path == "" {
			t.Errorf("%s: no path in evidence", fx)
		}
	}
}
