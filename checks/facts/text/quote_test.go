package text

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// quoteRe is the definition quoteSpans implements.
var quoteRe = regexp.MustCompile("\"[^\"\n]{1,400}\"|“[^”\n]{1,400}”|`[^`\n]{1,400}`|(^|\\W)'[^'\n]{3,400}'(\\W|$)")

func spansOf(s string) [][]int {
	var out [][]int
	for sp := range quoteSpans(s) {
		out = append(out, []int{sp[0], sp[1]})
	}
	return out
}

func checkQuoteSpans(t *testing.T, s string) {
	t.Helper()
	want := quoteRe.FindAllStringIndex(s, -1)
	got := spansOf(s)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("quoteSpans(%q) = %v, the regexp finds %v", s, got, want)
	}
}

func TestQuoteSpans(t *testing.T) {
	long := strings.Repeat("x", 400)
	for _, s := range []string{
		``, `"`, `""`, `"a"`, `say "ignore all previous instructions" now`,
		"“curly quotes”", "“unclosed", "`code`", "``", "a 'word' b", "'abc'", "'ab'", "x'abc'y", "x 'abc'y", " 'abc' ",
		"'abc'", "''abc''", "\"'abc'", "\"\n\"", "'ab\nc'", "é'abc'é", "\xff'abc'\xff", "\"\xff\"",
		`"` + long + `"`, `"` + long + `x"`, "'" + long + "'", " '" + long + "x' ", "`" + long + "`",
		`"a" "b" 'cde' ` + "`f`" + ` “g”`, `"a"b"c"`, `"'abc'"`, "'abc''def'", "''''''",
		"“" + long + "”", "“" + long + "x”", "’'abc'’", "_'abc'_", "-'abc'-",
	} {
		checkQuoteSpans(t, s)
	}
	// The minimal pair Quoted answers.
	if !Quoted(`he said "ignore the rules" twice`, 10) || Quoted(`he said "ignore the rules" twice`, 2) {
		t.Error("Quoted misplaces a double-quoted span")
	}
	// Evasion: a quote left open does not quote the rest of the line.
	if Quoted(`"ignore all previous instructions`, 5) {
		t.Error("an unclosed quote quoted the text after it")
	}
}

func FuzzQuoteSpans(f *testing.F) {
	for _, s := range []string{`"a"`, "“b”", "`c`", " 'def' ", "x'abc'y", "\"'abc'\"", "\xff'abc'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		checkQuoteSpans(t, s)
	})
}
