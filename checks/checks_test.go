package checks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

func valid(id string) *checks.Check {
	return &checks.Check{
		ID: id, Version: "1.0.0", Title: "t", Axis: checks.Safety, Weight: 1, Tier: checks.Deterministic,
		Kinds: []resolve.Kind{resolve.KindSkill}, Doc: "d", Remediation: "r",
		Run: func(context.Context, *checks.Input) (checks.Result, error) { return checks.Passed("ok"), nil },
	}
}

func TestCatalogValidation(t *testing.T) {
	mut := func(f func(*checks.Check)) *checks.Check { c := valid("a-b"); f(c); return c }
	tests := []struct {
		name string
		list []*checks.Check
		want string
	}{
		{"duplicate id", []*checks.Check{valid("a-b"), valid("a-b")}, "duplicate id"},
		{"not kebab-case", []*checks.Check{valid("A_b")}, "not kebab-case"},
		{"trailing hyphen", []*checks.Check{valid("a-")}, "not kebab-case"},
		{"not semver", []*checks.Check{mut(func(c *checks.Check) { c.Version = "1.0" })}, "not semver"},
		{"deterministic with a capability", []*checks.Check{mut(func(c *checks.Check) { c.Needs = []checks.Capability{checks.Net} })}, "deterministic check cannot declare"},
		{"unknown axis", []*checks.Check{mut(func(c *checks.Check) { c.Axis = "speed" })}, "unknown axis"},
		{"unknown kind", []*checks.Check{mut(func(c *checks.Check) { c.Kinds = []resolve.Kind{"model"} })}, "unknown kind"},
		{"no doc", []*checks.Check{mut(func(c *checks.Check) { c.Doc = " " })}, "no doc"},
		{"no remediation", []*checks.Check{mut(func(c *checks.Check) { c.Remediation = "" })}, "no remediation"},
		{"no run", []*checks.Check{mut(func(c *checks.Check) { c.Run = nil })}, "no Run"},
		{"negative weight", []*checks.Check{mut(func(c *checks.Check) { c.Weight = -1 })}, "negative weight"},
		{"unknown tier", []*checks.Check{mut(func(c *checks.Check) { c.Tier = "magic" })}, "unknown tier"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checks.NewCatalog("s", "1.0.0", tc.list)
			if !errors.Is(err, checks.ErrInvalidCatalog) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrInvalidCatalog mentioning %q", err, tc.want)
			}
		})
	}
	sampled := mut(func(c *checks.Check) { c.Tier = checks.Sampled; c.Needs = []checks.Capability{checks.Net} })
	if _, err := checks.NewCatalog("s", "1.0.0", []*checks.Check{sampled}); err != nil {
		t.Fatalf("a sampled check may declare net: %v", err)
	}
}

func TestCatalogDigestIsCanonical(t *testing.T) {
	a, _ := checks.NewCatalog("s", "1", []*checks.Check{valid("b"), valid("a")})
	b, _ := checks.NewCatalog("s", "1", []*checks.Check{valid("a"), valid("b")})
	if a.Digest() != b.Digest() || !strings.HasPrefix(a.Digest(), "sha256:") {
		t.Fatalf("digest depends on order: %s %s", a.Digest(), b.Digest())
	}
	c := valid("b")
	c.Weight = 2
	d, _ := checks.NewCatalog("s", "1", []*checks.Check{valid("a"), c})
	if d.Digest() == a.Digest() {
		t.Fatal("a weight change must change the digest")
	}
	// The canonical form is fixed: sorted keys, no spaces.
	want := checks.EntriesDigest([]checks.Entry{{Axis: "safety", ID: "a", Kinds: []string{"skill"}, Tier: "deterministic", Version: "1.0.0", Weight: 1}})
	one, _ := checks.NewCatalog("s", "1", []*checks.Check{valid("a")})
	if one.Digest() != want || want != "sha256:"+sha(`[{"axis":"safety","blocking":false,"id":"a","kinds":["skill"],"tier":"deterministic","version":"1.0.0","weight":1}]`) {
		t.Fatalf("digest %s is not over the canonical JSON", one.Digest())
	}
}

func subject() *resolve.Subject {
	return &resolve.Subject{Kind: resolve.KindSkill, Inventory: &resolve.Inventory{}, Manifests: &resolve.Manifests{}}
}

func TestRunnerIsolatesFailures(t *testing.T) {
	panicking := valid("panics")
	panicking.Run = func(context.Context, *checks.Input) (checks.Result, error) { panic("boom") }
	slow := valid("slow")
	slow.Run = func(ctx context.Context, _ *checks.Input) (checks.Result, error) {
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond)
		return checks.Passed("late"), nil
	}
	// Ignores its context: the run must record it at its deadline and move
	// on, not wait and take its late pass.
	hangs := valid("hangs")
	hangs.Run = func(context.Context, *checks.Input) (checks.Result, error) {
		time.Sleep(time.Second)
		return checks.Passed("late"), nil
	}
	failing := valid("errors")
	failing.Run = func(context.Context, *checks.Input) (checks.Result, error) {
		return checks.Result{}, errors.New("disk gone")
	}
	bogus := valid("bogus")
	bogus.Run = func(context.Context, *checks.Input) (checks.Result, error) {
		return checks.Result{Status: "great"}, nil
	}
	needsNet := valid("needs-net")
	needsNet.Tier, needsNet.Needs = checks.Sampled, []checks.Capability{checks.Net}
	needsNet.Run = func(context.Context, *checks.Input) (checks.Result, error) {
		t.Error("ran without its capability")
		return checks.Passed(""), nil
	}
	clock := valid("clock")
	clock.Tier, clock.Needs = checks.Sampled, []checks.Capability{checks.Clock}
	start := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	clock.Run = func(_ context.Context, in *checks.Input) (checks.Result, error) {
		if !in.StartedAt.Equal(start) {
			return checks.Failed("no start time"), nil
		}
		return checks.Passed("saw the start time"), nil
	}
	many := valid("many")
	many.Run = func(context.Context, *checks.Input) (checks.Result, error) {
		r := checks.Failed("lots")
		for i := 0; i < 120; i++ {
			r.Evidence = append(r.Evidence, checks.At("f", i+1, 0, ""))
		}
		return r, nil
	}
	other := valid("other-kind")
	other.Kinds = []resolve.Kind{resolve.KindMCP}
	cat, err := checks.NewCatalog("s", "1", []*checks.Check{panicking, slow, hangs, failing, bogus, needsNet, clock, many, other, valid("fine")})
	if err != nil {
		t.Fatal(err)
	}
	for _, parallel := range []int{0, 1, 4} { // 0: the default, one at a time for a small subject
		t.Run(fmt.Sprintf("parallel=%d", parallel), func(t *testing.T) {
			runIsolation(t, cat, start, parallel)
		})
	}
}

func runIsolation(t *testing.T, cat *checks.Catalog, start time.Time, parallel int) {
	var progress atomic.Int32
	out := checks.Run(context.Background(), subject(), cat, checks.RunOptions{Grants: checks.DefaultGrants, Timeout: 100 * time.Millisecond,
		StartedAt: start, Parallel: parallel, Progress: func(done, total int, id string) { progress.Add(1) }})
	if int(progress.Load()) != len(out) {
		t.Errorf("progress called %d times for %d checks", progress.Load(), len(out))
	}
	got := map[string]checks.Result{}
	for _, o := range out {
		got[o.Check.ID] = o.Result
	}
	if _, ran := got["other-kind"]; ran || len(out) != 9 {
		t.Errorf("ran %d checks; a check of another kind must not run", len(out))
	}
	for id, want := range map[string]checks.Status{"panics": checks.Error, "slow": checks.Error, "hangs": checks.Error, "errors": checks.Error, "bogus": checks.Error,
		"needs-net": checks.Skip, "clock": checks.Pass, "fine": checks.Pass, "many": checks.Fail} {
		if got[id].Status != want {
			t.Errorf("%s: status %s (%s), want %s", id, got[id].Status, got[id].Summary, want)
		}
	}
	if got["needs-net"].SkipReason != checks.SkipCapability {
		t.Errorf("needs-net: skip reason %q", got["needs-net"].SkipReason)
	}
	for _, id := range []string{"slow", "hangs"} {
		if !strings.Contains(got[id].Summary, "timed out") {
			t.Errorf("%s: %s", id, got[id].Summary)
		}
	}
	ev := got["many"].Evidence
	if len(ev) != checks.MaxEvidence+1 || ev[checks.MaxEvidence].Name != "evidence_total" || *ev[checks.MaxEvidence].Value != 120 {
		t.Errorf("evidence not capped with its true total: %d items", len(ev))
	}
	for i := 1; i < len(out); i++ {
		if out[i-1].Check.ID > out[i].Check.ID {
			t.Errorf("outcomes not sorted by id")
		}
	}
}

func TestIsSemver(t *testing.T) {
	for v, want := range map[string]bool{
		"1.0.0": true, "0.1.0": true, "1.2.3-rc.1": true, "1.2.3+build.7": true, "1.2.3-alpha.1+b": true, "10.20.30": true,
		"1.0": false, "1": false, "v1.0.0": false, "01.0.0": false, "1.0.0-": false, "1.0.0-01": false, "1.2.3.4": false, "": false, "1.2.3-a..b": false,
	} {
		if got := checks.IsSemver(v); got != want {
			t.Errorf("IsSemver(%q) = %v, want %v", v, got, want)
		}
	}
}
