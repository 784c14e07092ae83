package policy

import (
	"strings"
	"testing"
)

func TestParseConsumer(t *testing.T) {
	c, err := ParseConsumer([]byte(`{"minOverall": 80, "minAxis": {"safety": 90}, "mustPass": ["no-hardcoded-secrets"], "requireLog": true,
		"acceptWaived": ["no-sensitive-files"], "acceptDisabled": ["mcp-launchable"], "acceptNotRerun": ["no-remote-shell"]}`))
	if err != nil || *c.MinOverall != 80 || c.MinAxis["safety"] != 90 || !c.RequireLog ||
		c.AcceptWaived[0] != "no-sensitive-files" || c.AcceptDisabled[0] != "mcp-launchable" || c.AcceptNotRerun[0] != "no-remote-shell" {
		t.Fatalf("%+v %v", c, err)
	}
	for in, want := range map[string]string{
		`{"minOveral": 80}`:           "unknown field",
		`{"minAxis": {"speed": 1}}`:   "not an axis",
		`{"minOverall": 101}`:         "outside",
		`{"minAxis": {"safety": -1}}`: "outside",
		`[]`:                          "policy",
	} {
		if _, err := ParseConsumer([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func FuzzParseConsumer(f *testing.F) {
	f.Add([]byte(`{"minOverall": 80, "allowedSuites": ["attest-default"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseConsumer(data)
	})
}

// Keyless signers need an issuer, one way to name the subject, a valid
// regexp and a trusted root to check them against.
func TestConsumerIdentities(t *testing.T) {
	ok := `{"trustedIdentities": [{"subject": "a@example.com", "issuer": "https://accounts.example.com"}], "trustedRoot": "root.json"}`
	c, err := ParseConsumer([]byte(ok))
	if err != nil || len(c.TrustedIdentities) != 1 || c.TrustedRoot != "root.json" {
		t.Fatalf("%+v %v", c, err)
	}
	for name, bad := range map[string]string{
		"no issuer":      `{"trustedIdentities": [{"subject": "a@example.com"}], "trustedRoot": "r.json"}`,
		"no subject":     `{"trustedIdentities": [{"issuer": "https://x"}], "trustedRoot": "r.json"}`,
		"both subjects":  `{"trustedIdentities": [{"subject": "a", "subjectRegexp": "a", "issuer": "https://x"}], "trustedRoot": "r.json"}`,
		"bad regexp":     `{"trustedIdentities": [{"subjectRegexp": "(", "issuer": "https://x"}], "trustedRoot": "r.json"}`,
		"no root":        `{"trustedIdentities": [{"subject": "a@example.com", "issuer": "https://x"}]}`,
		"misspelt field": `{"trustedIdentities": [{"subjekt": "a@example.com", "issuer": "https://x"}], "trustedRoot": "r.json"}`,
	} {
		if _, err := ParseConsumer([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
