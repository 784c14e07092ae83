package suite

import (
	"sync"

	"github.com/metahub-ai/attest/checks"
	manifestpresent "github.com/metahub-ai/attest/checks/manifest-present"
	mcplaunchable "github.com/metahub-ai/attest/checks/mcp-launchable"
	noescapingsymlinks "github.com/metahub-ai/attest/checks/no-escaping-symlinks"
	nosensitivefiles "github.com/metahub-ai/attest/checks/no-sensitive-files"
	skillfrontmatter "github.com/metahub-ai/attest/checks/skill-frontmatter"
)

// ID and Version name the suite in reports.
const (
	ID      = "attest-default"
	Version = "1.0.0"
)

// All lists every check of the suite, sorted by id. Adding a check is one
// line here.
func All() []*checks.Check {
	return []*checks.Check{
		manifestpresent.Check,
		mcplaunchable.Check,
		noescapingsymlinks.Check,
		nosensitivefiles.Check,
		skillfrontmatter.Check,
	}
}

// Default returns the validated catalog of the suite.
var Default = sync.OnceValues(func() (*checks.Catalog, error) {
	return checks.NewCatalog(ID, Version, All())
})
