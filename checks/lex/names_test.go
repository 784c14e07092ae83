package lex

import (
	"regexp"
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
