package lex

import (
	"strings"
	"testing"
)

// naive is what Words answers: which words strings.Contains finds.
func naive(words []string, s string) map[int]bool {
	out := map[int]bool{}
	for i, w := range words {
		if strings.Contains(s, w) {
			out[i] = true
		}
	}
	return out
}

func checkWords(t *testing.T, words []string, s string) {
	t.Helper()
	w := NewWords(words)
	got := map[int]bool{}
	for i := range w.In(s) {
		got[i] = true
	}
	want := naive(words, s)
	if len(got) != len(want) {
		t.Fatalf("In(%q) = %v, strings.Contains finds %v", s, got, want)
	}
	for i := range want {
		if !got[i] {
			t.Fatalf("In(%q) = %v, strings.Contains finds %v", s, got, want)
		}
	}
	if w.Any(s) != (len(want) > 0) {
		t.Fatalf("Any(%q) = %v", s, w.Any(s))
	}
}

var wordsList = []string{"<", ":", "exam", "example", "xx", "the user", "é", "ab"}

func TestWords(t *testing.T) {
	for _, s := range []string{"", "a", "b", "ab", "<", "an example", "tell the user", "x", "xxx", "café", "exa", "ex\xc3\xa9"} {
		checkWords(t, wordsList, s)
	}
	if NewWords(nil).Any("anything") {
		t.Error("no words found a word")
	}
}

func FuzzWords(f *testing.F) {
	f.Add("tell the user an example: <b>")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		checkWords(t, wordsList, s)
	})
}
