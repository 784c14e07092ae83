package suite

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/metahub-ai/attest/checks"
)

// pinnedJSON is every version of every check the suite has shipped. It is
// append-only: verification recomputes old reports' scores from it, so an
// entry is never edited or removed (a test enforces that a check's axis,
// weight, blocking, tier or kinds do not change without a version bump).
//
//go:embed pinned.json
var pinnedJSON []byte

// PinnedCatalog serves catalog entries by id and version.
type PinnedCatalog struct {
	entries map[string]checks.Entry // "id@version"
	list    []checks.Entry
}

// Entry returns the pinned entry of a check version.
func (p *PinnedCatalog) Entry(id, version string) (checks.Entry, bool) {
	e, ok := p.entries[id+"@"+version]
	return e, ok
}

// Entries returns every pinned entry in file order.
func (p *PinnedCatalog) Entries() []checks.Entry { return p.list }

// Pinned returns the pinned catalog.
var Pinned = sync.OnceValues(func() (*PinnedCatalog, error) { return ParsePinned(pinnedJSON) })

// ParsePinned parses a pinned catalog file.
func ParsePinned(data []byte) (*PinnedCatalog, error) {
	var list []checks.Entry
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("pinned catalog: %w", err)
	}
	p := &PinnedCatalog{entries: map[string]checks.Entry{}, list: list}
	for _, e := range list {
		k := e.ID + "@" + e.Version
		if _, dup := p.entries[k]; dup {
			return nil, fmt.Errorf("pinned catalog: %s appears twice", k)
		}
		p.entries[k] = e
	}
	return p, nil
}
