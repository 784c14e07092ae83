package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/metahub-ai/attest/checks"
)

// Waiver lifts the block of a check's finding, in public: a waived result
// keeps its status and carries the waiver, with its reason.
type Waiver struct {
	Check   string   `json:"check"`
	Reason  string   `json:"reason"`
	Expires *string  `json:"expires"` // RFC 3339 date or time; nil never expires
	Paths   []string `json:"paths,omitempty"`
}

// Config is the policy applied to one run. The zero value applies nothing.
type Config struct {
	Source   string
	MinScore *float64
	Disabled []string
	Waivers  []Waiver
	Settings map[string]any
	// AllowHosts are reachable from the behavioral sandbox.
	AllowHosts []string
	// Behavioral runs the behavioral tier (attest.json "behavioral").
	Behavioral bool
}

// Validate rejects a configuration that cannot be applied.
func (c Config) Validate() error {
	if c.MinScore != nil && (*c.MinScore < 0 || *c.MinScore > 100 || *c.MinScore != *c.MinScore) {
		return fmt.Errorf("minimum score %v is outside 0..100", *c.MinScore)
	}
	for _, w := range c.Waivers {
		if w.Check == "" || strings.TrimSpace(w.Reason) == "" {
			return fmt.Errorf("waiver for %q: a waiver needs a check id and a reason", w.Check)
		}
		if w.Expires != nil {
			if _, err := parseExpiry(*w.Expires); err != nil {
				return fmt.Errorf("waiver for %q: expires %q is not a date (YYYY-MM-DD) or RFC 3339 time", w.Check, *w.Expires)
			}
		}
	}
	return nil
}

func parseExpiry(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.Add(24 * time.Hour), nil // a date expires at the end of that day (UTC)
}

// NextExpiry is the earliest time after now at which one of the
// config's waivers expires, and false when none will: a verdict reached
// under the config holds only until then.
func (c Config) NextExpiry(now time.Time) (time.Time, bool) {
	var next time.Time
	for _, w := range c.Waivers {
		if w.Expires == nil {
			continue
		}
		exp, err := parseExpiry(*w.Expires)
		if err != nil || !now.Before(exp) {
			continue
		}
		if next.IsZero() || exp.Before(next) {
			next = exp
		}
	}
	return next, !next.IsZero()
}

// Result is one entry of a report's results: a check outcome with its
// catalog fields and any waiver.
type Result struct {
	Check       string            `json:"check"`
	Version     string            `json:"version"`
	Axis        checks.Axis       `json:"axis"`
	Weight      int               `json:"weight"`
	Blocking    bool              `json:"blocking"`
	Tier        checks.Tier       `json:"tier"`
	Status      checks.Status     `json:"status"`
	SkipReason  string            `json:"skipReason,omitempty"`
	Summary     string            `json:"summary"`
	Detail      string            `json:"detail"`
	Remediation string            `json:"remediation"`
	Evidence    []checks.Evidence `json:"evidence"`
	Waiver      *Waiver           `json:"waiver"`
	Score       *float64          `json:"score"`
	DurationMs  int64             `json:"durationMs"`
}

// DisabledSummary is the summary of a check disabled by policy.
const DisabledSummary = "disabled by policy"

// Apply turns outcomes into results under a configuration: a disabled
// check becomes skip (reason policy), and a waiver that matches a warn or
// fail attaches to it. now judges waiver expiry. Results come back sorted
// by check id.
func Apply(outcomes []checks.Outcome, cfg Config, now time.Time) []Result {
	out := make([]Result, 0, len(outcomes))
	for _, o := range outcomes {
		c := o.Check
		r := Result{
			Check: c.ID, Version: c.Version, Axis: c.Axis, Weight: c.Weight, Blocking: c.Blocking, Tier: c.Tier,
			Status: o.Result.Status, SkipReason: o.Result.SkipReason, Summary: o.Result.Summary, Detail: o.Result.Detail,
			Remediation: c.Remediation, Evidence: o.Result.Evidence, Score: o.Result.Score,
			DurationMs: o.Duration.Milliseconds(),
		}
		if r.Evidence == nil {
			r.Evidence = []checks.Evidence{}
		}
		if r.Status == checks.Pass || r.Status == checks.Neutral {
			r.Remediation = ""
		}
		if slices.Contains(cfg.Disabled, c.ID) {
			r.Status, r.SkipReason, r.Summary, r.Detail, r.Evidence, r.Score = checks.Skip, checks.SkipPolicy, DisabledSummary, "", []checks.Evidence{}, nil
		} else if r.Status == checks.Fail || r.Status == checks.Warn {
			r.Waiver = matchWaiver(cfg.Waivers, r, now)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Result) int { return strings.Compare(a.Check, b.Check) })
	return out
}

func matchWaiver(ws []Waiver, r Result, now time.Time) *Waiver {
	for i := range ws {
		w := ws[i]
		if w.Check != r.Check {
			continue
		}
		if w.Expires != nil {
			exp, err := parseExpiry(*w.Expires)
			if err != nil || !now.Before(exp) {
				continue
			}
		}
		if len(w.Paths) > 0 && !coversEvidence(w.Paths, r.Evidence) {
			continue
		}
		return &w
	}
	return nil
}

// coversEvidence: a path-scoped waiver applies only when every file the
// finding names matches one of its patterns.
func coversEvidence(patterns []string, ev []checks.Evidence) bool {
	files := 0
	for _, e := range ev {
		if e.Type != checks.EvidenceFile {
			continue
		}
		files++
		ok := false
		for _, p := range patterns {
			if m, _ := doublestar.Match(p, e.Path); m {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return files > 0
}

// NotApplied is a waiver that names a check with a finding but does not
// waive it: expired, or its paths do not cover every file the finding
// names (those files are listed). The finding stands.
type NotApplied struct {
	Check          string   `json:"check"`
	Why            string   `json:"why"`
	Expires        *string  `json:"expires,omitempty"`
	UncoveredFiles []string `json:"uncoveredFiles,omitempty"`
}

// Reasons a waiver did not apply.
const (
	NotAppliedExpired = "expired"
	NotAppliedPaths   = "paths"
)

// NotAppliedWaivers lists, for every warn or fail left unwaived, the
// waivers of its check that did not apply and why.
func NotAppliedWaivers(results []Result, ws []Waiver, now time.Time) []NotApplied {
	var out []NotApplied
	for _, r := range results {
		if r.Waiver != nil || (r.Status != checks.Fail && r.Status != checks.Warn) {
			continue
		}
		for _, w := range ws {
			if w.Check != r.Check {
				continue
			}
			if w.Expires != nil {
				if exp, err := parseExpiry(*w.Expires); err != nil || !now.Before(exp) {
					out = append(out, NotApplied{Check: r.Check, Why: NotAppliedExpired, Expires: w.Expires})
					continue
				}
			}
			if len(w.Paths) > 0 {
				out = append(out, NotApplied{Check: r.Check, Why: NotAppliedPaths, UncoveredFiles: uncovered(w.Paths, r.Evidence)})
			}
		}
	}
	return out
}

// uncovered lists the files of the evidence no pattern matches.
func uncovered(patterns []string, ev []checks.Evidence) []string {
	var out []string
	for _, e := range ev {
		if e.Type != checks.EvidenceFile || slices.Contains(out, e.Path) {
			continue
		}
		if !coversEvidence(patterns, []checks.Evidence{e}) {
			out = append(out, e.Path)
		}
	}
	return out
}
