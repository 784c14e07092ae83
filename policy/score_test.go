package policy

import (
	"errors"
	"testing"
	"time"

	"github.com/metahub-ai/attest/checks"
)

// fakeCatalog serves entries from a table.
type fakeCatalog map[string]checks.Entry

func (f fakeCatalog) Entry(id, version string) (checks.Entry, bool) {
	e, ok := f[id]
	return e, ok && e.Version == version
}

var cat = fakeCatalog{
	"int-a":   {ID: "int-a", Version: "1.0.0", Axis: checks.Integrity, Weight: 4, Blocking: true},
	"int-b":   {ID: "int-b", Version: "1.0.0", Axis: checks.Integrity, Weight: 1},
	"saf-a":   {ID: "saf-a", Version: "1.0.0", Axis: checks.Safety, Weight: 5, Blocking: true},
	"saf-b":   {ID: "saf-b", Version: "1.0.0", Axis: checks.Safety, Weight: 3},
	"care-a":  {ID: "care-a", Version: "1.0.0", Axis: checks.Care, Weight: 2},
	"care-0":  {ID: "care-0", Version: "1.0.0", Axis: checks.Care, Weight: 0},
	"beh-a":   {ID: "beh-a", Version: "1.0.0", Axis: checks.Behavior, Weight: 5},
	"saf-cap": {ID: "saf-cap", Version: "1.0.0", Axis: checks.Safety, Weight: 5, Blocking: true},
}

func r(id string, st checks.Status, opts ...func(*Result)) Result {
	res := Result{Check: id, Version: "1.0.0", Status: st}
	for _, o := range opts {
		o(&res)
	}
	return res
}

func graded(v float64) func(*Result) { return func(r *Result) { r.Score = &v } }
func waived(r *Result)               { r.Waiver = &Waiver{Check: r.Check, Reason: "test key"} }
func disabled(r *Result)             { r.Status, r.SkipReason = checks.Skip, checks.SkipPolicy }
func reason(s string) func(*Result)  { return func(r *Result) { r.SkipReason = s } }

func f(v float64) *float64 { return &v }

// TestCompute pins attest-default@1 rule by rule. Axis weights: safety 4,
// integrity 2, care 1 (behavior unmeasured). Worked example for "graded
// warn": integrity = (4×1 + 1×0.2)/5 = 84; overall = (84×2 + 100×4 + 100×1)/7
// = 95.43 → 95.4.
func TestCompute(t *testing.T) {
	allPass := []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)}
	tests := []struct {
		name     string
		in       []Result
		min      *float64
		overall  *float64
		verdict  string
		axis     checks.Axis
		score    *float64
		coverage float64
		blocking []string
	}{
		{name: "all pass; behavior not measured is null, not 0", in: allPass, overall: f(100), verdict: VerdictPass,
			axis: checks.Behavior, score: nil, coverage: 0},
		{name: "error never counts against the artifact", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Error), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(100), verdict: VerdictPass, axis: checks.Integrity, score: f(100), coverage: 0.8},
		{name: "error on a blocking check is insufficient", in: []Result{r("int-a", checks.Error), r("int-b", checks.Pass), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(100), verdict: VerdictInsufficient, axis: checks.Integrity, score: f(100), coverage: 0.2},
		{name: "graded warn uses its own score", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Warn, graded(0.2)), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(95.4), verdict: VerdictPass, axis: checks.Integrity, score: f(84), coverage: 1},
		{name: "ungraded warn is 0.5", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Pass), r("saf-b", checks.Warn), r("care-a", checks.Pass)},
			overall: f(89.3), verdict: VerdictPass, axis: checks.Safety, score: f(81.3), coverage: 1},
		{name: "score on pass is ignored", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass, graded(0)), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(100), verdict: VerdictPass, axis: checks.Integrity, score: f(100), coverage: 1},
		{name: "safety floor: blocking safety fail zeroes safety", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Fail), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(42.9), verdict: VerdictFail, axis: checks.Safety, score: f(0), coverage: 1, blocking: []string{"saf-a"}},
		{name: "non-blocking safety fail averages", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Pass), r("saf-b", checks.Fail), r("care-a", checks.Pass)},
			overall: f(78.6), verdict: VerdictPass, axis: checks.Safety, score: f(62.5), coverage: 1},
		{name: "blocking integrity fail fails the verdict but does not floor", in: []Result{r("int-a", checks.Fail), r("int-b", checks.Pass), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(77.1), verdict: VerdictFail, axis: checks.Integrity, score: f(20), coverage: 1, blocking: []string{"int-a"}},
		{name: "waived fail: judged for coverage, out of the mean, lifts the block", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Fail, waived), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(100), verdict: VerdictPass, axis: checks.Safety, score: f(100), coverage: 1},
		{name: "disabled: scores 0, counts as covered, cannot block", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Pass), r("saf-a", checks.Fail, disabled), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			overall: f(64.3), verdict: VerdictPass, axis: checks.Safety, score: f(37.5), coverage: 1},
		{name: "neutral counts nowhere", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Neutral), r("saf-a", checks.Pass), r("saf-b", checks.Neutral), r("care-a", checks.Neutral)},
			overall: f(100), verdict: VerdictPass, axis: checks.Care, score: nil, coverage: 0},
		{name: "weight-0 checks are informational", in: []Result{r("int-a", checks.Pass), r("saf-a", checks.Pass), r("care-a", checks.Pass), r("care-0", checks.Fail)},
			overall: f(100), verdict: VerdictPass, axis: checks.Care, score: f(100), coverage: 1},
		{name: "coverage floor: only care measured gives no overall", in: []Result{r("care-a", checks.Pass), r("saf-a", checks.Skip)},
			overall: nil, verdict: VerdictInsufficient, axis: checks.Care, score: f(100), coverage: 1},
		{name: "coverage exactly at the floor has an overall", in: []Result{r("saf-a", checks.Pass), r("care-a", checks.Pass)},
			overall: f(100), verdict: VerdictPass, axis: checks.Safety, score: f(100), coverage: 1},
		{name: "a limit skip on a blocking check is insufficient", in: append(append([]Result{}, allPass...), r("saf-cap", checks.Skip, reason(checks.SkipLimit))),
			overall: f(100), verdict: VerdictInsufficient, axis: checks.Safety, score: f(100), coverage: 0.62},
		{name: "a capability skip lowers coverage but may pass", in: append(append([]Result{}, allPass...), r("saf-cap", checks.Skip, reason(checks.SkipCapability))),
			overall: f(100), verdict: VerdictPass, axis: checks.Safety, score: f(100), coverage: 0.62},
		{name: "min score met", in: allPass, min: f(100), overall: f(100), verdict: VerdictPass, axis: checks.Integrity, score: f(100), coverage: 1},
		{name: "min score missed", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Fail), r("saf-a", checks.Pass), r("saf-b", checks.Pass), r("care-a", checks.Pass)},
			min: f(99), overall: f(94.3), verdict: VerdictFail, axis: checks.Integrity, score: f(80), coverage: 1},
		{name: "null overall is below any minimum", in: []Result{r("care-a", checks.Pass)}, min: f(0), overall: nil, verdict: VerdictFail,
			axis: checks.Care, score: f(100), coverage: 1},
		{name: "rounding: half away from zero", in: []Result{r("int-a", checks.Pass), r("int-b", checks.Warn, graded(0.25)), r("saf-a", checks.Pass), r("care-a", checks.Warn, graded(0.2475))},
			overall: f(85), verdict: VerdictPass, axis: checks.Care, score: f(24.8), coverage: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compute(tc.in, cat, tc.min)
			if err != nil {
				t.Fatal(err)
			}
			if s.Formula != FormulaDefault {
				t.Errorf("formula %q", s.Formula)
			}
			if !eqp(s.Overall, tc.overall) {
				t.Errorf("overall %v, want %v", deref(s.Overall), deref(tc.overall))
			}
			if s.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s", s.Verdict, tc.verdict)
			}
			ax := s.Axes[tc.axis]
			if !eqp(ax.Score, tc.score) || ax.Coverage != tc.coverage {
				t.Errorf("%s: score %v coverage %v, want %v %v", tc.axis, deref(ax.Score), ax.Coverage, deref(tc.score), tc.coverage)
			}
			if tc.blocking == nil {
				tc.blocking = []string{}
			}
			if len(s.Blocking) != len(tc.blocking) || len(s.Blocking) > 0 && s.Blocking[0] != tc.blocking[0] {
				t.Errorf("blocking %v, want %v", s.Blocking, tc.blocking)
			}
		})
	}
}

func TestUnknownCheckVersion(t *testing.T) {
	_, err := Compute([]Result{{Check: "int-a", Version: "9.0.0", Status: checks.Pass}}, cat, nil)
	if !errors.Is(err, ErrUnknownCheck) {
		t.Fatalf("err = %v, want ErrUnknownCheck", err)
	}
}

func TestApplyDisabledAndWaivers(t *testing.T) {
	mk := func(id string, st checks.Status, path string) checks.Outcome {
		return checks.Outcome{Check: &checks.Check{ID: id, Version: "1.0.0", Axis: checks.Safety, Weight: 5, Blocking: true, Remediation: "fix"},
			Result: checks.Result{Status: st, Summary: "s", Evidence: []checks.Evidence{checks.At(path, 1, 0, "")}}}
	}
	past, future := "2026-01-01", "2027-01-01"
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	cfg := Config{
		Disabled: []string{"b"},
		Waivers: []Waiver{
			{Check: "a", Reason: "throwaway test key", Expires: &future, Paths: []string{"tests/**"}},
			{Check: "c", Reason: "expired", Expires: &past},
			{Check: "d", Reason: "wrong path", Paths: []string{"docs/*"}},
		},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	res := Apply([]checks.Outcome{mk("d", checks.Fail, "src/x"), mk("c", checks.Fail, "x"), mk("b", checks.Fail, "x"), mk("a", checks.Fail, "tests/k.pem")}, cfg, now)
	if res[0].Check != "a" || res[0].Waiver == nil || res[0].Status != checks.Fail {
		t.Errorf("a: waived result must keep its status and carry the waiver: %+v", res[0])
	}
	if res[1].Status != checks.Skip || res[1].SkipReason != checks.SkipPolicy || res[1].Summary != DisabledSummary {
		t.Errorf("b: disabled check must be skip by policy: %+v", res[1])
	}
	if res[2].Waiver != nil {
		t.Errorf("c: an expired waiver must not apply")
	}
	if res[3].Waiver != nil {
		t.Errorf("d: a waiver scoped to other paths must not apply")
	}
	bad := Config{Waivers: []Waiver{{Check: "a"}}}
	if bad.Validate() == nil {
		t.Error("a waiver without a reason must be rejected")
	}
}

func eqp(a, b *float64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestRoundHalfAwayFromZero(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		d    int
		want float64
	}{{0.25, 1, 0.3}, {-0.25, 1, -0.3}, {0.625, 2, 0.63}, {99.95, 1, 100}, {12.5, 0, 13}} {
		if got := round(tc.in, tc.d); got != tc.want {
			t.Errorf("round(%v, %d) = %v, want %v", tc.in, tc.d, got, tc.want)
		}
	}
}

func TestVerdictReason(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	cases := []struct {
		name    string
		s       Score
		results []Result
		min     *float64
		want    string
	}{
		{"pass", Score{Verdict: VerdictPass, Overall: v(99)}, nil, nil, ""},
		{"blocked", Score{Verdict: VerdictFail, Overall: v(40), Blocking: []string{"a", "b"}}, nil, nil, "blocked by a, b"},
		{"min score", Score{Verdict: VerdictFail, Overall: v(98.7)}, nil, v(99), "98.7 < --min-score 99"},
		{"min score, no overall", Score{Verdict: VerdictFail}, nil, v(50), "no overall score (not enough was measured) < --min-score 50"},
		{"not measured", Score{Verdict: VerdictInsufficient}, nil, nil, "not enough was measured to publish a score"},
		{"blocking error", Score{Verdict: VerdictInsufficient, Overall: v(90)}, []Result{
			{Status: checks.Error, Check: "deps-no-known-vulns", Blocking: true},
			{Status: checks.Error, Check: "not-blocking"},
			{Status: checks.Skip, SkipReason: checks.SkipCapability, Check: "behaves-safely", Blocking: true},
		}, nil, "blocking check could not run (error): deps-no-known-vulns"},
		{"limit", Score{Verdict: VerdictInsufficient, Overall: v(90)}, []Result{
			{Status: checks.Skip, SkipReason: checks.SkipLimit, Check: "no-hardcoded-secrets", Blocking: true},
		}, nil, "blocking check stopped at a limit: no-hardcoded-secrets"},
	}
	for _, c := range cases {
		if got := VerdictReason(c.s, c.results, c.min); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
