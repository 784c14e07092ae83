package suite_test

import (
	"regexp"

	"bytes"
	"encoding/json"
	"flag"
	"github.com/metahub-ai/attest/checks/lex"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/suite"
)

var fixPinned = flag.Bool("fixpinned", false, "append new check versions to pinned.json")

// TestRegistry validates the suite as a whole: the catalog builds, the list
// is sorted and complete, every check's package is named after its id, and
// every check has positive and negative fixtures that get the status they
// name.
func TestRegistry(t *testing.T) {
	cat, err := suite.Default()
	if err != nil {
		t.Fatal(err)
	}
	all := suite.All()
	ids := make([]string, len(all))
	for i, c := range all {
		ids[i] = c.ID
	}
	if !slices.IsSorted(ids) {
		t.Errorf("suite.All() is not sorted by id: %v", ids)
	}
	dirs, _ := filepath.Glob("../*/testdata/pos")
	var onDisk []string
	for _, d := range dirs {
		onDisk = append(onDisk, filepath.Base(filepath.Dir(filepath.Dir(d))))
	}
	for _, id := range onDisk {
		if _, ok := cat.Lookup(id); !ok {
			t.Errorf("checks/%s is not listed in suite.All()", id)
		}
	}
	for _, c := range cat.Checks() {
		t.Run(c.ID, func(t *testing.T) {
			dir := filepath.Join("..", c.ID)
			files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
			if len(files) == 0 {
				t.Fatalf("no directory checks/%s", c.ID)
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "doc.go"), nil, parser.PackageClauseOnly)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(c.ID, "-", ""); f.Name.Name != want {
				t.Errorf("package %s, want %s", f.Name.Name, want)
			}
			if slices.Contains(c.Needs, checks.Net) {
				// Its fixtures need a network fake; its own package test
				// runs them against one (deps-no-known-vulns: a fake OSV).
				if fx := checktest.Fixtures(t, filepath.Join(dir, "testdata")); len(fx) < 2 {
					t.Errorf("%d fixtures under checks/%s/testdata", len(fx), c.ID)
				}
				return
			}
			if slices.Contains(c.Needs, checks.Sandbox) {
				// Its fixtures are artifacts to run: testdata/behave, driven
				// in the real sandbox with a fake model by behave/harness's
				// tests; its own tests judge recorded observations.
				if fx, _ := filepath.Glob("../../testdata/behave/*"); len(fx) < 2 {
					t.Errorf("%d behavioral fixtures under testdata/behave", len(fx))
				}
				return
			}
			if provenanceOnly[c.ID] {
				return // judges the provenance, not the files; a unit test covers it
			}
			pos, neg := checktest.Verify(t, c, filepath.Join(dir, "testdata"))
			if pos == 0 || neg == 0 {
				t.Errorf("%d positive and %d negative fixtures; want at least one of each under checks/%s/testdata/{pos,neg}", pos, neg, c.ID)
			}
		})
	}
}

// provenanceOnly are checks whose input is the target's provenance (a
// commit time), which a fixture directory cannot carry.
var provenanceOnly = map[string]bool{"recently-maintained": true}

// TestPinned keeps the pinned catalog append-only and complete.
func TestPinned(t *testing.T) {
	pinned, err := suite.Pinned()
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := suite.Default()
	var missing []checks.Entry
	for _, e := range cat.Entries() {
		p, ok := pinned.Entry(e.ID, e.Version)
		if !ok {
			missing = append(missing, e)
			continue
		}
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(e)
		if !bytes.Equal(a, b) {
			t.Errorf("%s@%s changed without a version bump:\n pinned  %s\n current %s\nbump the check's Version", e.ID, e.Version, a, b)
		}
	}
	if len(missing) == 0 {
		return
	}
	if !*fixPinned {
		for _, e := range missing {
			t.Errorf("%s@%s is not in pinned.json; run 'go test ./checks/suite -run TestPinned -fixpinned'", e.ID, e.Version)
		}
		return
	}
	list := append(slices.Clone(pinned.Entries()), missing...)
	out, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("pinned.json", append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPinnedRejectsDuplicates: an edited pinned file must not load.
func TestPinnedRejectsDuplicates(t *testing.T) {
	e := `{"axis":"safety","blocking":true,"id":"x","kinds":["skill"],"tier":"deterministic","version":"1.0.0","weight":5}`
	if _, err := suite.ParsePinned([]byte("[" + e + "," + e + "]")); err == nil {
		t.Fatal("a duplicated id@version must be rejected")
	}
}

// TestPatternsCompile compiles every lazily compiled pattern of every
// check, so none can fail at run time.
func TestPatternsCompile(t *testing.T) {
	ps := lex.Patterns()
	if len(ps) < 50 {
		t.Fatalf("only %d patterns registered", len(ps))
	}
	for _, p := range ps {
		if _, err := regexp.Compile(p.Expr()); err != nil {
			t.Errorf("%q: %v", p.Expr(), err)
		}
	}
}

// TestReleases keeps releases.json append-only and naming the suite this
// build runs: changing the set of checks or their versions without a new
// suite Version fails.
func TestReleases(t *testing.T) {
	cat, err := suite.Default()
	if err != nil {
		t.Fatal(err)
	}
	var cur []string
	for _, e := range cat.Entries() {
		cur = append(cur, e.ID+"@"+e.Version)
	}
	slices.Sort(cur)
	rs, err := suite.Releases()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		es, err := r.Entries()
		if err != nil {
			t.Error(err)
		}
		if r.ID == suite.ID && r.Version == suite.Version {
			if !slices.Equal(r.Checks, cur) {
				t.Fatalf("suite %s@%s is released with other checks; bump suite.Version", r.ID, r.Version)
			}
			if checks.EntriesDigest(es) != cat.Digest() {
				t.Fatal("the release's recomputed catalog digest differs from the live one")
			}
			return
		}
	}
	if !*fixPinned {
		t.Fatalf("suite %s@%s is not in releases.json; run 'go test ./checks/suite -run TestReleases -fixpinned'", suite.ID, suite.Version)
	}
	out, _ := json.MarshalIndent(append(rs, suite.Release{ID: suite.ID, Version: suite.Version, Checks: cur}), "", "  ")
	if err := os.WriteFile("releases.json", append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
