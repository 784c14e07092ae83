package vocab

import (
	"slices"
	"strings"
	"testing"
)

// matchers are every words class and phrase family, each with its
// pattern.
func matchers() map[string]*Matcher {
	out := map[string]*Matcher{}
	for class, m := range phraseTable().wordRes {
		out["words "+class] = m
	}
	for _, p := range Phrases() {
		out[p.Entry.String()] = p.m
	}
	return out
}

// sameAsRegexp fails when a matcher finds other matches in s than its
// pattern run unanchored over the whole of s does.
func sameAsRegexp(t *testing.T, name string, m *Matcher, s string) {
	t.Helper()
	if got, want := m.Find(s), m.Re().FindStringIndex(s); !slices.Equal(got, want) {
		t.Fatalf("%s on %q: Find %v, regexp %v", name, s, got, want)
	}
	if got, want := m.FindAll(s, 16), m.Re().FindAllStringIndex(s, 16); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%s on %q: FindAll %v, regexp %v", name, s, got, want)
	}
}

// A matcher finds what its pattern finds, on every example text of the
// vocabulary, lower-cased as sentences are, and most patterns (all the
// words classes the prose producer scans most) are searched from their
// first words.
func TestMatcherAgreesWithRegexp(t *testing.T) {
	var texts []string
	for _, e := range Entries("phrases") {
		for _, s := range append(append([]string(nil), e.Pos...), e.Neg...) {
			texts = append(texts, s, strings.ToLower(s), "so "+strings.ToLower(s)+", and then "+strings.ToLower(s))
		}
	}
	all := matchers()
	started := 0
	for name, m := range all {
		if fromWords(m) {
			started++
		}
		for _, s := range texts {
			sameAsRegexp(t, name, m, s)
		}
	}
	if started*10 < len(all)*9 {
		t.Errorf("only %d of %d patterns are searched from their first words", started, len(all))
	}
	for _, class := range []string{"read", "send", "secret", "dest", "negator", "frame"} {
		if m := Words(class); m == nil || !fromWords(m) {
			t.Errorf("words %s is searched unanchored", class)
		}
	}
}

func mustMatcher(t *testing.T, expr string) *Matcher {
	t.Helper()
	m, err := newMatcher(expr)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fromWords reports a matcher that searches from the words its matches
// begin with, or has such a branch.
func fromWords(m *Matcher) bool {
	return m.starts != nil || slices.ContainsFunc(m.alts, fromWords)
}

// The leading-word search honours a \b against the byte before it, which
// a search over a slice of the sentence would not see: "task" holds "ask"
// but does not begin with it.
func TestMatcherWordStart(t *testing.T) {
	m := mustMatcher(t, `\b(?:ask|request) for (?:the|your) (?:key|token)\b`)
	if m.starts == nil {
		t.Fatal("no leading words found")
	}
	for _, s := range []string{"the task for the key", "ask for the key", "then ask for your token now", "basket ask for the token", "ask for the keys"} {
		sameAsRegexp(t, "ask", m, s)
	}
	if loc := m.Index("task for the key; ask for the key", 1); !slices.Equal(loc, []int{18, 33}) {
		t.Errorf("Index from inside a word: %v", loc)
	}
	// a pattern that may begin at the text's start or after a byte
	m = mustMatcher(t, `(?:^|[\s,])safety (?:off|disabled)`)
	if m.starts == nil || !m.atBegin {
		t.Fatal("no beginnings found for a pattern opening on ^")
	}
	for _, s := range []string{"safety off", "so, safety off", "unsafety off", " safety disabled", "x\xe2safety off"} {
		sameAsRegexp(t, "safety", m, s)
	}
	// an alternation with a branch that may begin on any letter searches
	// each branch its own way, the first one at an offset winning as in
	// the alternation; from an offset, \b sees the byte before it
	m = mustMatcher(t, `(?:\b(?:[a-z]+\.(?:com|org))\b|\b(?:ab\.com)\b|\b(?:the (?:remote|external) host)\b)`)
	if len(m.alts) != 3 || m.alts[0].starts != nil || m.alts[2].starts == nil {
		t.Fatalf("branches not split: %d", len(m.alts))
	}
	for _, s := range []string{"see ab.com or the remote host", "the remote host, xab.com", "the external host at b.org"} {
		sameAsRegexp(t, "split", m, s)
	}
	if loc := m.Index("xab.com ab.com", 1); !slices.Equal(loc, []int{8, 14}) {
		t.Errorf("Index from inside a word: %v", loc)
	}
	// flags set for the rest of the pattern do not carry over to split
	// branches: such a pattern is searched whole
	m = mustMatcher(t, `ab\.com|(?i)[a-z]+\.org`)
	if m.alts != nil {
		t.Error("a pattern with a flag group was split")
	}
	for _, s := range []string{"see X.ORG", "ab.com and B.org"} {
		sameAsRegexp(t, "flags", m, s)
	}
	// a \b before a byte that is no word byte asks for a word byte before
	m = mustMatcher(t, `\b(?:-rf|--force)`)
	for _, s := range []string{"rm -rf /", "rm-rf /", "x--force", "--force"} {
		sameAsRegexp(t, "rf", m, s)
	}
}

func FuzzMatcher(f *testing.F) {
	for _, e := range Entries("phrases") {
		for _, s := range e.Pos {
			f.Add(strings.ToLower(s))
		}
	}
	all := matchers()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		for name, m := range all {
			sameAsRegexp(t, name, m, s)
		}
	})
}
