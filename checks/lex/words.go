package lex

import (
	"iter"
	"strings"
)

// Words finds which of a fixed list of words occur in a text, in one pass:
// a bitmap over the words' first two bytes passes over most positions of
// the text with one bit test. Testing each word with strings.Contains
// costs a scan per word, which for a few dozen words over short blocks of
// text cost as much as the patterns the words stand in front of.
type Words struct {
	words []string
	bits  [1024]uint64
	byTwo map[uint16][]int32 // word indexes by their first two bytes
	short []int32            // words under two bytes
}

// NewWords indexes words; In reports them by their index in words.
func NewWords(words []string) *Words {
	w := &Words{words: words, byTwo: map[uint16][]int32{}}
	for i, s := range words {
		if len(s) < 2 {
			w.short = append(w.short, int32(i))
			continue
		}
		k := uint16(s[0])<<8 | uint16(s[1])
		w.bits[k/64] |= 1 << (k % 64)
		w.byTwo[k] = append(w.byTwo[k], int32(i))
	}
	return w
}

// In yields the index of each word that occurs in s, once for each place
// it occurs (words under two bytes once), in no set order.
func (w *Words) In(s string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, i := range w.short {
			if strings.Contains(s, w.words[i]) && !yield(int(i)) {
				return
			}
		}
		for p := 0; p+1 < len(s); p++ {
			k := uint16(s[p])<<8 | uint16(s[p+1])
			if w.bits[k/64]&(1<<(k%64)) == 0 {
				continue
			}
			for _, i := range w.byTwo[k] {
				if strings.HasPrefix(s[p:], w.words[i]) && !yield(int(i)) {
					return
				}
			}
		}
	}
}

// Any reports whether s contains one of the words.
func (w *Words) Any(s string) bool {
	for range w.In(s) {
		return true
	}
	return false
}
