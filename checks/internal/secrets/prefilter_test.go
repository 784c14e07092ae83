package secrets

import (
	"strings"
	"testing"
)

func ruleByID(t testing.TB, id string) *rule {
	for _, r := range rules().Rules {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no rule %s", id)
	return nil
}

// curlCases: the curl rules' matches, as the pattern alone finds them.
var curlCases = []string{
	"curl -H 'Authorization: Bearer " + j("Zq8vL2mX", "9rT4wK7p") + "' https://api.example.org",
	"curl https://api.example.org \\\n  --header \"X-Api-Key: " + j("Zq8vL2mX", "9rT4wK7p") + "\"",
	"curl -u deploy:" + j("Zq8vL2mX", "9rT4wK7p") + " https://api.example.org",
	"curl --user 'deploy:" + j("Zq8vL2mX", "9rT4wK7p") + "' https://api.example.org",
	"curl https://x.example.org \\\n  -o out \\\n  -u deploy:" + j("Zq8vL2mX", "9rT4wK7p") + " ",
}

// TestRequiredLiterals: every match of a prefiltered rule holds one of
// its literals (so skipping a window without them skips no match), and
// the prefilter changes no scan result.
func TestRequiredLiterals(t *testing.T) {
	for id := range requiredLiterals {
		r := ruleByID(t, id)
		r.compile()
		matched := 0
		for _, c := range curlCases {
			if r.re.MatchString(c) {
				matched++
				if !mayMatch(r, []byte(c)) {
					t.Errorf("%s matches %q, which the prefilter skips", id, c)
				}
			}
		}
		if matched == 0 {
			t.Errorf("%s: no case matches; the cases no longer exercise it", id)
		}
	}
	// The minimal pair: the same command with and without the credential flag.
	with := "curl -H 'Authorization: Bearer " + j("Zq8vL2mX", "9rT4wK7p") + "' https://api.example.org\n"
	without := "curl -X 'Authorization: Bearer " + j("Zq8vL2mX", "9rT4wK7p") + "' https://api.example.org\n"
	if ms := Scan("x.sh", []byte(with)); len(ms) != 1 || ms[0].Rule != "curl-auth-header" {
		t.Errorf("curl -H with a bearer token: %+v", ms)
	}
	if ms := Scan("x.sh", []byte(without)); len(ms) != 0 {
		t.Errorf("curl without a header flag: %+v", ms)
	}
	// Evasion: the flag on a later continuation line than "curl" is still
	// in the window and still found.
	split := "curl https://api.example.org \\\n  -o out.json \\\n  -u deploy:" + j("Zq8vL2mX", "9rT4wK7p") + " \n"
	if ms := Scan("x.sh", []byte(split)); len(ms) != 1 || ms[0].Rule != "curl-auth-user" {
		t.Errorf("curl -u on a continuation line: %+v", ms)
	}
}

func FuzzRequiredLiterals(f *testing.F) {
	for _, c := range curlCases {
		f.Add(c)
	}
	f.Add("curl -X POST -d @x https://example.org")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		for id := range requiredLiterals {
			r := ruleByID(t, id)
			r.compile()
			if r.re.MatchString(s) && !mayMatch(r, []byte(s)) {
				t.Fatalf("%s matches %q, which the prefilter skips", id, s)
			}
		}
	})
}

func FuzzStopIndex(f *testing.F) {
	r := ruleByID(f, "generic-api-key")
	f.Add("zq8vl2mx9rt4wk7p")
	f.Add("my-example-token")
	f.Fuzz(func(t *testing.T, s string) {
		for i := range r.Allowlists {
			a := &r.Allowlists[i]
			if len(a.StopWords) == 0 {
				continue
			}
			want := false
			for _, w := range a.StopWords {
				if strings.Contains(s, w) {
					want = true
					break
				}
			}
			if got := a.stopWords().Any(s); got != want {
				t.Fatalf("Any(%q) = %v, strings.Contains says %v", s, got, want)
			}
		}
	})
}
