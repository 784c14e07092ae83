package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// LockFile is the surface lock's file name.
const LockFile = "attest.lock.json"

// LockVersion is the lock format written.
const LockVersion = 1

// MaxLockBytes bounds a lock file read.
const MaxLockBytes = 16 << 20

// LockEntry is one tool, prompt or resource by name and digests.
type LockEntry struct {
	Kind              string `json:"kind"` // tool, prompt or resource
	Name              string `json:"name"`
	DescriptionSHA256 string `json:"descriptionSha256"`
	SchemaSHA256      string `json:"schemaSha256,omitempty"`
}

// Lock is an approved surface: what a reviewer accepted, by digest.
type Lock struct {
	LockVersion int         `json:"lockVersion"`
	Origin      string      `json:"origin"`
	Entries     []LockEntry `json:"entries"`
}

// NewLock makes a lock of entries, sorted.
func NewLock(origin string, entries []LockEntry) *Lock {
	l := &Lock{LockVersion: LockVersion, Origin: origin, Entries: append([]LockEntry{}, entries...)}
	sort.Slice(l.Entries, func(i, j int) bool {
		a, b := l.Entries[i], l.Entries[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.DescriptionSHA256+a.SchemaSHA256 < b.DescriptionSHA256+b.SchemaSHA256
	})
	return l
}

// ParseLock reads a lock file.
func ParseLock(data []byte) (*Lock, error) {
	if len(data) > MaxLockBytes {
		return nil, fmt.Errorf("lock file of %d bytes, over the %d-byte limit", len(data), MaxLockBytes)
	}
	if err := checkDepth(data, 8); err != nil {
		return nil, err
	}
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	if l.LockVersion != LockVersion {
		return nil, fmt.Errorf("lock file version %d; this build reads version %d (run 'attest lock' again)", l.LockVersion, LockVersion)
	}
	switch l.Origin {
	case Declared, Observed, Snapshot:
	default:
		return nil, errors.New("lock file: origin must be declared, observed or snapshot")
	}
	return &l, nil
}

// Drift is one difference between a lock and the current surface.
type Drift struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Change string `json:"change"` // added, removed, description changed, schema changed, redefined
	// Review is true for changes a person must approve: anything a model
	// will read differently. A removal is recorded but needs none.
	Review bool `json:"review"`
}

// ErrNotComparable means the lock and the surface come from different
// origins: what source declares and what a running server shows are never
// compared, since either may differ from the other for reasons of its own.
var ErrNotComparable = errors.New("not comparable: the lock and the surface have different origins (declared, observed, snapshot)")

// Compare lists how current differs from the lock.
func Compare(lock, current *Lock) ([]Drift, error) {
	if lock.Origin != current.Origin && !(lock.Origin == Observed && current.Origin == Snapshot || lock.Origin == Snapshot && current.Origin == Observed) {
		return nil, ErrNotComparable
	}
	type key struct{ kind, name string }
	group := func(l *Lock) (map[key][]LockEntry, []key) {
		m := map[key][]LockEntry{}
		var order []key
		for _, e := range l.Entries {
			k := key{e.Kind, e.Name}
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] = append(m[k], e)
		}
		return m, order
	}
	old, oldOrder := group(lock)
	cur, curOrder := group(current)
	var out []Drift
	for _, k := range curOrder {
		was, ok := old[k]
		if !ok {
			out = append(out, Drift{k.kind, k.name, "added", true})
			continue
		}
		if len(was) != len(cur[k]) {
			out = append(out, Drift{k.kind, k.name, "redefined", true})
			continue
		}
		for i, e := range cur[k] {
			d, s := e.DescriptionSHA256 != was[i].DescriptionSHA256, e.SchemaSHA256 != was[i].SchemaSHA256
			switch {
			case d && s:
				// The same name with a new description and a new schema: a
				// name reused with a new meaning.
				out = append(out, Drift{k.kind, k.name, "redefined", true})
			case d:
				out = append(out, Drift{k.kind, k.name, "description changed", true})
			case s:
				out = append(out, Drift{k.kind, k.name, "schema changed", true})
			}
		}
	}
	for _, k := range oldOrder {
		if _, ok := cur[k]; !ok {
			out = append(out, Drift{k.kind, k.name, "removed", false})
		}
	}
	return out, nil
}

// NeedsReview reports whether any drift needs a person's approval.
func NeedsReview(ds []Drift) bool {
	for _, d := range ds {
		if d.Review {
			return true
		}
	}
	return false
}
