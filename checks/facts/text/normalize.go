// Package text normalises text a model reads before the analysers match
// it: invisible characters removed, NFKC, letters that look like ASCII
// mapped to it, case folded, whitespace collapsed; and finds its quoted
// spans. It is shared by the prose producer and the text checks.
package text

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/metahub-ai/attest/checks/internal/uni"
)

// toLatin maps a homoglyph of an ASCII letter or digit to it (UTS #39
// skeletons, from the generated table).
func toLatin(r rune) (byte, bool) {
	i, ok := slices.BinarySearchFunc(latin[:], r, func(e struct {
		r rune
		a byte
	}, r rune) int {
		return int(e.r - r)
	})
	if !ok {
		return 0, false
	}
	return latin[i].a, true
}

// Normalize prepares text for matching: invisible, tag and bidi characters
// removed, NFKC, homoglyphs of Latin letters mapped to Latin (UTS #39
// skeletons of non-ASCII letters), lower case, whitespace collapsed. It
// resists zero-width splitting, homoglyphs, case and line wrapping.
func Normalize(s string) string {
	if ascii(s) {
		return asciiNormalize(s)
	}
	var b strings.Builder
	for _, r := range s {
		switch uni.Classify(r) {
		case uni.Invisible, uni.Tag, uni.Bidi, uni.Mark, uni.Selector, uni.SoftHyphen:
			continue
		}
		b.WriteRune(r)
	}
	s = norm.NFKC.String(b.String())
	b.Reset()
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		if r >= 0x80 {
			if a, ok := toLatin(r); ok {
				r = rune(a)
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimSpace(b.String())
}

// ascii: printable ASCII and whitespace only, which NFKC, skeletons and
// the invisible-character filter leave alone.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func asciiNormalize(s string) string {
	b := make([]byte, 0, len(s))
	space := true // trims leading space
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			if !space {
				b = append(b, ' ')
			}
			space = true
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		space = false
		b = append(b, c)
	}
	if len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}
