package suite

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/metahub-ai/attest/checks"
)

// releasesJSON lists every release of the suite with the check versions it
// holds; append-only like pinned.json. Verification uses it to know which
// checks a report of a given suite release and kind must carry, and to
// recompute the catalog digest the report names.
//
//go:embed releases.json
var releasesJSON []byte

// Release is one release of the suite.
type Release struct {
	ID      string   `json:"id"`
	Version string   `json:"version"`
	Checks  []string `json:"checks"` // "id@version", sorted
}

// Releases returns every release of the suite.
var Releases = sync.OnceValues(func() ([]Release, error) {
	var rs []Release
	if err := json.Unmarshal(releasesJSON, &rs); err != nil {
		return nil, fmt.Errorf("suite releases: %w", err)
	}
	return rs, nil
})

// FindRelease returns a release by suite id and version.
func FindRelease(id, version string) (Release, bool) {
	rs, err := Releases()
	if err != nil {
		return Release{}, false
	}
	for _, r := range rs {
		if r.ID == id && r.Version == version {
			return r, true
		}
	}
	return Release{}, false
}

// Entries resolves a release's checks in the pinned catalog.
func (r Release) Entries() ([]checks.Entry, error) {
	p, err := Pinned()
	if err != nil {
		return nil, err
	}
	out := make([]checks.Entry, 0, len(r.Checks))
	for _, c := range r.Checks {
		var id, ver string
		for i := len(c) - 1; i >= 0; i-- {
			if c[i] == '@' {
				id, ver = c[:i], c[i+1:]
				break
			}
		}
		e, ok := p.Entry(id, ver)
		if !ok {
			return nil, fmt.Errorf("suite %s@%s names %s, which the pinned catalog lacks", r.ID, r.Version, c)
		}
		out = append(out, e)
	}
	return out, nil
}
