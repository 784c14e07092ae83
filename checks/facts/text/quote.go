package text

import (
	"iter"
	"unicode/utf8"
)

// Quoted reports whether the normalised text's offset lies inside quotes
// or inline code: "…", “…”, `…` (1 to 400 characters, on one line) and
// '…' (3 to 400, word-bounded). The spans are those the regular expression
// in quoteSpans's test finds, found by hand: its bounded repetitions
// compiled to about 1,600 instructions, which cost a fresh process 1.2 ms
// and 0.9 MB to compile and ran on the slow NFA path. A differential fuzz
// test holds the two equal.
func Quoted(norm string, off int) bool {
	for s := range quoteSpans(norm) {
		if s[0] <= off && off < s[1] {
			return true
		}
		if s[0] > off {
			return false
		}
	}
	return false
}

// maxQuoted bounds a quoted span's characters.
const maxQuoted = 400

// quoteSpans yields the successive, non-overlapping quoted spans of s, as
// Go's regexp would find them for
//
//	"[^"\n]{1,400}"|“[^”\n]{1,400}”|`[^`\n]{1,400}`|(^|\W)'[^'\n]{3,400}'(\W|$)
//
// leftmost first, alternatives in that order, positions at rune starts.
func quoteSpans(s string) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		for p := 0; p < len(s); {
			r, w := utf8.DecodeRuneInString(s[p:])
			if end, ok := quoteAt(s, p, r, w); ok {
				if !yield([2]int{p, end}) {
					return
				}
				p = end
				continue
			}
			p += w
		}
	}
}

// quoteAt matches the alternatives at p, whose rune is r (w bytes).
func quoteAt(s string, p int, r rune, w int) (int, bool) {
	switch r {
	case '"', '`':
		if end, ok := closed(s, p+w, r, 1); ok {
			return end, true
		}
	case '“':
		if end, ok := closed(s, p+w, '”', 1); ok {
			return end, true
		}
	}
	// (^|\W)'…'(\W|$): the empty start of text first, then a non-word rune.
	if p == 0 && r == '\'' {
		if end, ok := apostrophes(s, p); ok {
			return end, true
		}
	}
	if !isWordRune(r) && p+w < len(s) && s[p+w] == '\'' {
		if end, ok := apostrophes(s, p+w); ok {
			return end, true
		}
	}
	return 0, false
}

// closed matches a run of min to maxQuoted runes, none of them close or a
// newline, from i, then close; it returns the end after close.
func closed(s string, i int, close rune, min int) (int, bool) {
	n := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == close {
			if n >= min {
				return i + w, true
			}
			return 0, false
		}
		if r == '\n' || n == maxQuoted {
			return 0, false
		}
		n++
		i += w
	}
	return 0, false
}

// apostrophes matches '…'(\W|$) with the opening apostrophe at i.
func apostrophes(s string, i int) (int, bool) {
	end, ok := closed(s, i+1, '\'', 3)
	if !ok {
		return 0, false
	}
	if end == len(s) {
		return end, true
	}
	if r, w := utf8.DecodeRuneInString(s[end:]); !isWordRune(r) {
		return end + w, true
	}
	return 0, false
}

// isWordRune is regexp's \w: ASCII letters, digits and underscore.
func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}
