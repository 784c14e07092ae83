package lex

import (
	"strings"
	"unicode/utf8"
)

// Kebab reports whether s is lower-case kebab case: ^[a-z0-9]+(-[a-z0-9]+)*$.
// Written out because it runs on every evaluation and compiling the regular
// expression costs more than the whole match.
func Kebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// LicenseFileName reports whether a root file name is a licence file:
// (?i)^(licen[cs]e|copying|unlicense)([-._].*)?$.
func LicenseFileName(name string) bool {
	for _, stem := range []string{"license", "licence", "copying", "unlicense"} {
		if rest, ok := cutFoldPrefix(name, stem); ok {
			if rest == "" || (rest[0] == '-' || rest[0] == '.' || rest[0] == '_') && !strings.Contains(rest, "\n") {
				return true
			}
		}
	}
	return false
}

// cutFoldPrefix is strings.CutPrefix under Unicode simple case folding, the
// folding (?i) uses, so that "LICENſE" counts as it would for the expression.
func cutFoldPrefix(s, prefix string) (string, bool) {
	for _, p := range prefix {
		if s == "" {
			return "", false
		}
		r, n := utf8.DecodeRuneInString(s)
		if r != p && !strings.EqualFold(s[:n], string(p)) {
			return "", false
		}
		s = s[n:]
	}
	return s, true
}

// ContainsFold reports whether s contains sub, a lower-case ASCII string,
// comparing ASCII letters without regard to case. It reads s in place:
// lowering a whole file to search it for one word copied every file.
func ContainsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	first, upper := sub[0], sub[0]
	if first >= 'a' && first <= 'z' {
		upper -= 'a' - 'A'
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i]; (c == first || c == upper) && asciiEqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func asciiEqualFold(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
