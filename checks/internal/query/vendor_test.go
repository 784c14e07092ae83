package query

import (
	"testing"

	"github.com/metahub-ai/attest/checks/facts"
)

// A documented installer is a vendor's when its host is a toolchain's
// installer or the artifact's home, or its forge repository is the
// artifact's own; a host or a forge merely linked is not.
func TestVendorInstaller(t *testing.T) {
	in := facts.Intent{
		Purpose: []string{"widget", "Note Index Keeper"},
		Hosts:   []string{"github.com", "tripkit.example.net", "widget.example.org"},
		Homes:   []string{"widget.example.org"},
		Repos:   []string{"github.com/acme-tools/widget-cli"},
	}
	for u, want := range map[string]bool{
		"https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh":        true,  // a toolchain installer
		"https://widget.example.org/install.sh":                                  true,  // the manifests' home
		"https://raw.githubusercontent.com/acme-tools/widget-cli/v1/install.sh":  true,  // its repository
		"https://github.com/jdoe/note-index-keeper/releases/download/v1/i.sh":    true,  // named for its title
		"https://raw.githubusercontent.com/jdoe/widget/main/install.sh":          true,  // named for the artifact
		"https://raw.githubusercontent.com/someone-else/helpers/main/install.sh": false, // a forge linked, not its repository
		"https://tripkit.example.net/install.sh":                                 false, // a host only linked
	} {
		if got := VendorInstaller(in, u); got != want {
			t.Errorf("VendorInstaller(%s) = %v, want %v", u, got, want)
		}
	}
}
