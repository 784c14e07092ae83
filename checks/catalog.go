package checks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// ErrInvalidCatalog means a catalog failed validation.
var ErrInvalidCatalog = errors.New("invalid check catalog")

// IsSemver reports whether s is a strict semver 2.0.0 version (no "v"):
// golang.org/x/mod/semver's grammar without its vMAJOR and vMAJOR.MINOR
// shorthands.
func IsSemver(s string) bool {
	core, _, _ := strings.Cut(strings.SplitN(s, "+", 2)[0], "-")
	return !strings.HasPrefix(s, "v") && strings.Count(core, ".") == 2 && semver.IsValid("v"+s)
}

// Entry is a check's catalog entry: everything the score formula and
// verification take from the catalog rather than from a report. Fields are
// in lexical order of their JSON names so encoding/json writes canonical
// JSON (RFC 8785) for this all-string/int/bool shape.
type Entry struct {
	Axis     Axis     `json:"axis"`
	Blocking bool     `json:"blocking"`
	ID       string   `json:"id"`
	Kinds    []string `json:"kinds"`
	Tier     Tier     `json:"tier"`
	// Uses is the version of what the check reads beyond the bytes (the
	// analysis model: its producers and vocabulary); empty for a check
	// that uses nothing.
	Uses    string `json:"uses,omitempty"`
	Version string `json:"version"`
	Weight  int    `json:"weight"`
}

// Entry returns the check's catalog entry.
func (c *Check) Entry() Entry {
	kinds := make([]string, len(c.Kinds))
	for i, k := range c.Kinds {
		kinds[i] = string(k)
	}
	e := Entry{Axis: c.Axis, Blocking: c.Blocking, ID: c.ID, Kinds: kinds, Tier: c.Tier, Version: c.Version, Weight: c.Weight}
	if slices.Contains(c.Uses, UsesFacts) {
		e.Uses = analysis.ModelVersion()
	}
	return e
}

// Catalog is a validated, id-sorted set of checks.
type Catalog struct {
	ID      string // suite id, e.g. attest-default
	Version string // suite version
	checks  []*Check
}

// NewCatalog validates checks and returns them as a catalog: unique
// kebab-case ids, semver versions, known axes, tiers, kinds and
// capabilities, non-negative weights, a doc and a remediation, a Run
// function, and no deterministic check that declares a capability.
func NewCatalog(id, version string, list []*Check) (*Catalog, error) {
	var errs []error
	seen := map[string]bool{}
	for i, c := range list {
		if c == nil {
			errs = append(errs, fmt.Errorf("entry %d is nil", i))
			continue
		}
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("check %q: %s", c.ID, fmt.Sprintf(format, args...)))
		}
		if !lex.Kebab(c.ID) {
			bad("id is not kebab-case")
		}
		if seen[c.ID] {
			bad("duplicate id")
		}
		seen[c.ID] = true
		if !IsSemver(c.Version) {
			bad("version %q is not semver", c.Version)
		}
		if !slices.Contains(Axes, c.Axis) {
			bad("unknown axis %q", c.Axis)
		}
		if c.Weight < 0 {
			bad("negative weight")
		}
		switch c.Tier {
		case Deterministic:
			if len(c.Needs) > 0 {
				bad("a deterministic check cannot declare capabilities (needs %v)", c.Needs)
			}
		case Replayable, Sampled:
		default:
			bad("unknown tier %q", c.Tier)
		}
		for _, n := range c.Needs {
			if !slices.Contains([]Capability{Net, Model, Sandbox, Clock}, n) {
				bad("unknown capability %q", n)
			}
		}
		if len(c.Kinds) == 0 {
			bad("applies to no kind")
		}
		for _, k := range c.Kinds {
			if !slices.Contains(resolve.Kinds, k) {
				bad("unknown kind %q", k)
			}
		}
		if strings.TrimSpace(c.Title) == "" {
			bad("no title")
		}
		if strings.TrimSpace(c.Doc) == "" {
			bad("no doc")
		}
		if strings.TrimSpace(c.Remediation) == "" {
			bad("no remediation")
		}
		if c.Run == nil {
			bad("no Run function")
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrInvalidCatalog, errors.Join(errs...))
	}
	sorted := slices.Clone(list)
	slices.SortFunc(sorted, func(a, b *Check) int { return strings.Compare(a.ID, b.ID) })
	return &Catalog{ID: id, Version: version, checks: sorted}, nil
}

// Checks returns the checks sorted by id.
func (c *Catalog) Checks() []*Check { return c.checks }

// Lookup returns the check with the given id.
func (c *Catalog) Lookup(id string) (*Check, bool) {
	i, ok := slices.BinarySearchFunc(c.checks, id, func(x *Check, id string) int { return strings.Compare(x.ID, id) })
	if !ok {
		return nil, false
	}
	return c.checks[i], true
}

// Entries returns the catalog entries sorted by id.
func (c *Catalog) Entries() []Entry {
	out := make([]Entry, len(c.checks))
	for i, ch := range c.checks {
		out[i] = ch.Entry()
	}
	return out
}

// Digest is sha256 of the canonical JSON of the entries, "sha256:<hex>".
func (c *Catalog) Digest() string { return EntriesDigest(c.Entries()) }

// EntriesDigest computes a catalog digest over entries sorted by id.
func EntriesDigest(entries []Entry) string {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b Entry) int { return strings.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sorted); err != nil {
		panic(err) // unreachable: plain strings, ints and bools
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Entry looks up a check's entry by id and version, so that a catalog can
// serve the score formula; a version other than the catalog's is unknown.
func (c *Catalog) Entry(id, version string) (Entry, bool) {
	ch, ok := c.Lookup(id)
	if !ok || ch.Version != version {
		return Entry{}, false
	}
	return ch.Entry(), true
}
