package policy

import (
	"strings"
	"testing"
)

func TestParseConsumer(t *testing.T) {
	c, err := ParseConsumer([]byte(`{"minOverall": 80, "minAxis": {"safety": 90}, "mustPass": ["no-hardcoded-secrets"], "requireLog": true}`))
	if err != nil || *c.MinOverall != 80 || c.MinAxis["safety"] != 90 || !c.RequireLog {
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
