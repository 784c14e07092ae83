// Package uni classifies the code points that hide or reorder text:
// tag characters, bidi controls, invisible and zero-width characters,
// variation selectors and private-use code points, and decides which
// sequences are legitimate (emoji ZWJ and tag sequences, keycaps, joiners
// between Arabic and Indic letters, marks next to RTL letters).
package uni

import (
	"fmt"
	"strings"
	"unicode"
)

// Class of a suspicious code point.
type Class int

const (
	None Class = iota
	Tag
	Bidi      // embeddings, overrides, isolates
	Mark      // LRM, RLM, ALM
	Invisible // zero-width and filler characters
	Selector  // variation selectors
	SoftHyphen
	PrivateUse
)

func (c Class) String() string {
	return [...]string{"", "tag character", "bidi control", "directional mark", "invisible character", "variation selector", "soft hyphen", "private-use character"}[c]
}

// Classify returns the class of r.
func Classify(r rune) Class {
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return Tag
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return Bidi
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return Mark
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E,
		r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r == 0x034F, r == 0x17B4, r == 0x17B5:
		return Invisible
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return Selector
	case r == 0x00AD:
		return SoftHyphen
	case unicode.Is(unicode.Co, r):
		return PrivateUse
	}
	return None
}

// IsEmoji approximates the Extended_Pictographic property.
func IsEmoji(r rune) bool {
	return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r >= 0x2300 && r <= 0x23FF ||
		r >= 0x2B00 && r <= 0x2BFF || r == 0x00A9 || r == 0x00AE || r == 0x203C || r == 0x2049 || r == 0x2122 ||
		r == 0x2139 || r >= 0x2194 && r <= 0x21AA || r == 0x3030 || r == 0x303D || r == 0x3297 || r == 0x3299
}

// IsRTL reports whether r is a Hebrew, Arabic, Syriac, Thaana or N'Ko letter.
func IsRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

// joinerScript: scripts where ZWJ and ZWNJ shape letters.
func joinerScript(r rune) bool {
	return unicode.In(r, unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati,
		unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala, unicode.Syriac, unicode.Myanmar, unicode.Khmer)
}

// Hit is a suspicious code point (or run) that is not part of a
// legitimate sequence.
type Hit struct {
	Offset int // byte offset of the first code point
	Class  Class
	Runes  []rune
}

// Names describes the hit's code points.
func (h Hit) Names() string {
	var parts []string
	for i, r := range h.Runes {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(h.Runes)))
			break
		}
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	return strings.Join(parts, " ")
}

// Decoded returns the ASCII text tag characters spell, if any.
func (h Hit) Decoded() string {
	var b strings.Builder
	for _, r := range h.Runes {
		if r >= 0xE0020 && r <= 0xE007E {
			b.WriteRune(r - 0xE0000)
		}
	}
	return b.String()
}

// Scan finds the suspicious code points of s that no legitimate sequence
// explains. Runs of adjacent suspicious code points are one hit.
func Scan(s string) []Hit {
	// Offsets come from the string itself: an invalid byte is one byte of s
	// but a three-byte U+FFFD in rs.
	rs := make([]rune, 0, len(s))
	offs := make([]int, 0, len(s)+1)
	for o, r := range s {
		rs = append(rs, r)
		offs = append(offs, o)
	}
	offs = append(offs, len(s))
	var hits []Hit
	for i := 0; i < len(rs); i++ {
		c := Classify(rs[i])
		if c == None || allowed(rs, i) {
			continue
		}
		j := i
		for j+1 < len(rs) && Classify(rs[j+1]) != None && !allowed(rs, j+1) {
			j++
		}
		cls := c
		for _, r := range rs[i : j+1] {
			if Classify(r) == Tag || Classify(r) == Bidi {
				cls = Classify(r)
			}
		}
		hits = append(hits, Hit{Offset: offs[i], Class: cls, Runes: append([]rune(nil), rs[i:j+1]...)})
		i = j
	}
	return hits
}

func at(rs []rune, i int) rune {
	if i < 0 || i >= len(rs) {
		return 0
	}
	return rs[i]
}

// allowed reports whether rs[i] belongs to a legitimate sequence.
func allowed(rs []rune, i int) bool {
	r := rs[i]
	prev, next := at(rs, i-1), at(rs, i+1)
	switch {
	case r == 0xFEFF && i == 0:
		return true // a byte order mark at the start
	case r >= 0xE0020 && r <= 0xE007F:
		// Emoji tag sequence: U+1F3F4 followed by tags, ended by U+E007F.
		j := i
		for j > 0 && at(rs, j-1) >= 0xE0020 && at(rs, j-1) <= 0xE007E {
			j--
		}
		if at(rs, j-1) != 0x1F3F4 {
			return false
		}
		k := i
		for k < len(rs) && rs[k] >= 0xE0020 && rs[k] <= 0xE007E {
			k++
		}
		return at(rs, k) == 0xE007F && k-j <= 7
	case r == 0x200D: // ZWJ: between emoji (with their selectors), or between joining-script letters
		p := prev
		if p == 0xFE0F || p >= 0x1F3FB && p <= 0x1F3FF {
			p = at(rs, i-2)
		}
		return IsEmoji(p) && IsEmoji(next) || joinerScript(prev) && joinerScript(next)
	case r == 0x200C: // ZWNJ: Persian and Indic shaping
		return joinerScript(prev) || joinerScript(next)
	case r == 0x200E || r == 0x200F || r == 0x061C:
		return IsRTL(prev) || IsRTL(next) || IsRTL(at(rs, i-2)) || IsRTL(at(rs, i+2))
	case r == 0xFE0F || r == 0xFE0E:
		// After an emoji or a keycap base, once.
		return (IsEmoji(prev) || strings.ContainsRune("#*0123456789", prev) && next == 0x20E3 || prev >= 0x2190 && prev <= 0x21FF) && Classify(prev) != Selector
	case r >= 0xFE00 && r <= 0xFE0D:
		return unicode.Is(unicode.Han, prev) || unicode.In(prev, unicode.Mongolian)
	case r >= 0xE0100 && r <= 0xE01EF:
		return unicode.Is(unicode.Han, prev) && Classify(prev) != Selector
	case r == 0x00AD:
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case r == 0x200B:
		// A zero-width space alone at the start of a line, before a
		// fence marker or nothing: Markdown's way to keep a fence from
		// closing or a blank line inside a list item. It splits no word
		// and hides no text.
		return (i == 0 || prev == '\n' || prev == ' ' || prev == '\t') && lineStart(rs, i) &&
			(next == 0 || next == '\n' || next == '\r' || next == '`' || next == '~')
	}
	return false
}

// lineStart reports whether only spaces stand between the start of the
// line and position i.
func lineStart(rs []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch rs[j] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// Bidi control helpers for code literals.
const (
	pdf = 0x202C
	pdi = 0x2069
)

// BalancedRTL reports whether a literal's bidi controls are legitimate: it
// contains RTL letters and closes every embedding, override and isolate it
// opens, in order.
func BalancedRTL(s string) bool {
	hasRTL := false
	var stack []rune
	for _, r := range s {
		switch {
		case IsRTL(r):
			hasRTL = true
		case r >= 0x202A && r <= 0x202E && r != pdf:
			stack = append(stack, pdf)
		case r >= 0x2066 && r <= 0x2068:
			stack = append(stack, pdi)
		case r == pdf || r == pdi:
			if len(stack) == 0 || stack[len(stack)-1] != r {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return hasRTL && len(stack) == 0
}

// HasBidi reports whether s holds an embedding, override or isolate.
func HasBidi(s string) bool {
	for _, r := range s {
		if Classify(r) == Bidi {
			return true
		}
	}
	return false
}

// Scripts returns the scripts of the letters of an identifier that matter
// for confusion: Latin, Cyrillic, Greek, Armenian.
func Scripts(s string) (latin, other bool) {
	for _, r := range s {
		switch {
		case r < 0x80 && unicode.IsLetter(r), unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian):
			other = true
		}
	}
	return latin, other
}
