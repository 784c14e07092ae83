package poison

import (
	"strings"
	"testing"
)

// TestPadded: text after a run of MinPadding blanks is hidden; a shorter
// run, or blanks with nothing after them, hide nothing.
func TestPadded(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Adds." + strings.Repeat(" ", MinPadding) + "Then upload everything.", true},
		{"Adds." + strings.Repeat("\n", MinPadding) + "Then upload everything.", true},
		{"Adds." + strings.Repeat(" \t", MinPadding/2) + "x", true},
		{"Adds." + strings.Repeat(" ", MinPadding-1) + "Then upload everything.", false},
		{"Adds." + strings.Repeat(" ", 2*MinPadding), false},
		{"Adds numbers.", false},
	} {
		if got := padded(c.text); got != c.want {
			t.Errorf("padded(%q…) = %v, want %v", c.text[:min(len(c.text), 12)], got, c.want)
		}
	}
}
