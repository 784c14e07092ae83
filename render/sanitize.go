package render

import (
	"fmt"
	"strings"
	"unicode"
)

// Terminal makes an artifact-derived string safe to print: control
// characters (C0 but tab, C1, DEL), format characters (bidi overrides and
// isolates, zero-width characters, tag characters) and line separators are
// written as visible \u{XXXX} escapes, so a finding can neither move the
// cursor, recolour the screen nor reorder what the reader sees.
func Terminal(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == unicode.ReplacementChar:
			b.WriteString(`\u{FFFD}`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Co, r):
			fmt.Fprintf(&b, `\u{%04X}`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}
