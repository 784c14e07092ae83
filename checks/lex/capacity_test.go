package lex

import (
	"fmt"
	"strings"
	"testing"
)

// TestCapacityHoldsLargeSources: a large source's tokens fit the slice
// sized for them, so lexing never grows it (growing held the old and new
// arrays at once: twice the tokens of a minified bundle).
func TestCapacityHoldsLargeSources(t *testing.T) {
	var minified, python strings.Builder
	for i := 0; minified.Len() < 2*countFrom; i++ {
		fmt.Fprintf(&minified, "var a%d=function(b,c){return b+c*%d/2>=1?\"x\":'y'};", i, i%7)
	}
	for i := 0; python.Len() < 2*countFrom; i++ {
		fmt.Fprintf(&python, "def f%d(x, y=1):\n    # add them\n    return x + y * %d  # done\n\n", i, i%7)
	}
	for _, c := range []struct {
		name string
		toks func(string) []Token
		src  string
	}{
		{"minified JS", JS, minified.String()},
		{"Python", Python, python.String()},
	} {
		toks := c.toks(c.src)
		if want := capacity(c.src); cap(toks) != want {
			t.Errorf("%s: %d tokens grew the slice from %d to %d", c.name, len(toks), want, cap(toks))
		}
		if len(toks) < cap(toks)/2 {
			t.Errorf("%s: %d tokens in a slice of %d: the estimate is too loose", c.name, len(toks), cap(toks))
		}
	}
}
