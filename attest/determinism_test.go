package attest_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
)

// TestDeterministicAcrossRoots runs the whole suite on the same tree under
// two root names and paths (every sample and every check's fixtures) and
// requires identical results: a deterministic check is a pure function of
// the digested bytes, so 'verify --artifact' agrees on a tree downloaded
// into any directory.
func TestDeterministicAcrossRoots(t *testing.T) {
	type tree struct {
		dir  string
		kind resolve.Kind
	}
	var trees []tree
	samples, _ := filepath.Glob(filepath.Join(samples, "*"))
	for _, s := range samples {
		if st, err := os.Stat(s); err == nil && st.IsDir() {
			trees = append(trees, tree{s, ""})
		}
	}
	checkDirs, _ := filepath.Glob("../checks/*/testdata")
	for _, d := range checkDirs {
		for _, fx := range checktest.Fixtures(t, d) {
			trees = append(trees, tree{fx.Dir, fx.Kind})
		}
	}
	if len(trees) < 100 {
		t.Fatalf("only %d trees", len(trees))
	}
	results := func(dir string, kind resolve.Kind) ([]policy.Result, policy.Score, string, error) {
		r, err := attest.Evaluate(context.Background(), dir, attest.Options{Kind: kind, Now: clock})
		if err != nil {
			return nil, policy.Score{}, "", err
		}
		for i := range r.Results {
			r.Results[i].DurationMs = 0
		}
		return r.Results, r.Score, r.Subject.Digest.SHA256, nil
	}
	for _, tr := range trees {
		a := checktest.Materialize(t, tr.dir)
		b := filepath.Join(t.TempDir(), "elsewhere", "another-name")
		if err := os.MkdirAll(filepath.Dir(b), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(b, os.DirFS(a)); err != nil {
			// CopyFS refuses symlinks; rename keeps them.
			if err := os.RemoveAll(b); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(a, b); err != nil {
				t.Fatal(err)
			}
			a = checktest.Materialize(t, tr.dir)
		}
		ra, sa, da, errA := results(a, tr.kind)
		rb, sb, db, errB := results(b, tr.kind)
		if (errA == nil) != (errB == nil) {
			t.Errorf("%s: evaluates under one root only: %v / %v", tr.dir, errA, errB)
			continue
		}
		if errA != nil {
			continue // not evaluable as given (a fixture of a resolve error), alike under both
		}
		if da != db {
			t.Errorf("%s: digest %s under its own name, %s under another", tr.dir, da, db)
		}
		if !reflect.DeepEqual(sa, sb) {
			t.Errorf("%s: score %+v under its own name, %+v under another", tr.dir, sa, sb)
		}
		for i := range ra {
			if i < len(rb) && !reflect.DeepEqual(ra[i], rb[i]) {
				t.Errorf("%s: %s is %s (%s) under its own name, %s (%s) under another", tr.dir, ra[i].Check, ra[i].Status, ra[i].Summary, rb[i].Status, rb[i].Summary)
			}
		}
		if len(ra) != len(rb) {
			t.Errorf("%s: %d results, %d under another name", tr.dir, len(ra), len(rb))
		}
	}
}
