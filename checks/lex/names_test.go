package lex

import (
	"regexp"
	"strings"
	"testing"
)

func TestNamesMatchTheirExpressions(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	license := regexp.MustCompile(`(?i)^(licen[cs]e|copying|unlicense)([-._].*)?$`)
	for _, s := range []string{"", "a", "a-b", "a--b", "-a", "a-", "A", "pdf-forms", "x1-2y", "a_b", "a b", "é",
		"LICENSE", "license.md", "Licence-MIT", "COPYING", "unlicense", "UNLICENSE.txt", "licenses", "license_x", "mylicense", "copying\n", "LICENſE", "unlicenſe.md", "\xff"} {
		if got, want := Kebab(s), kebab.MatchString(s); got != want {
			t.Errorf("Kebab(%q) = %v, the expression says %v", s, got, want)
		}
		if got, want := LicenseFileName(s), license.MatchString(s); got != want {
			t.Errorf("LicenseFileName(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzNamesMatchTheirExpressions(f *testing.F) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	license := regexp.MustCompile(`(?i)^(licen[cs]e|copying|unlicense)([-._].*)?$`)
	for _, s := range []string{"a-b", "LICENSE.md", "--", "copying\n", "LICENſE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Kebab(s) != kebab.MatchString(s) {
			t.Errorf("Kebab(%q) disagrees with its expression", s)
		}
		if LicenseFileName(s) != license.MatchString(s) {
			t.Errorf("LicenseFileName(%q) disagrees with its expression", s)
		}
	})
}

// containsFoldRef is the definition ContainsFold is pinned to: lower the
// ASCII letters of a copy, then search.
func containsFoldRef(s, sub string) bool {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return strings.Contains(string(b), sub)
}

func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, sub string
		want   bool
	}{
		{"Invoke PowerShell -enc", "powershell", true},
		{"POWERSHELL", "powershell", true},
		{"powershel", "powershell", false},
		{"pOwErShElL.exe", "powershell", true},
		{"power shell", "powershell", false},
		{"xx", "", true},
		{"", "a", false},
		{"a1B2", "1b2", true},
	} {
		if got := ContainsFold(c.s, c.sub); got != c.want || got != containsFoldRef(c.s, c.sub) {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.sub, got, c.want)
		}
	}
}

func FuzzContainsFold(f *testing.F) {
	f.Add("Invoke-PowerShell", "powershell")
	f.Add("aAa", "aa")
	f.Fuzz(func(t *testing.T, s, sub string) {
		sub = strings.ToLower(sub)
		for i := 0; i < len(sub); i++ {
			if sub[i] >= 0x80 {
				return // sub is lower-case ASCII by contract
			}
		}
		if ContainsFold(s, sub) != containsFoldRef(s, sub) {
			t.Errorf("ContainsFold(%q, %q) disagrees with lowering a copy", s, sub)
		}
	})
}
