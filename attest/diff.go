package attest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/policy"
)

// Diff is what changed between two reports of an artifact: what a CI gate
// on a change needs, without forcing an absolute threshold.
type Diff struct {
	Base DiffSide `json:"base"`
	Head DiffSide `json:"head"`
	// SameSubject is true when the artifact's tree digest did not change:
	// any change then comes from the tool, not the artifact.
	SameSubject bool `json:"sameSubject"`
	// OverallDelta and AxisDelta are head minus base, when both measured.
	OverallDelta *float64                `json:"overallDelta"`
	AxisDelta    map[checks.Axis]float64 `json:"axisDelta"`
	// Regressions got worse (pass → warn → fail) without a waiver.
	Regressions []Change `json:"regressions"`
	// StoppedJudging were pass, warn or fail and are now skip or error
	// (disabled, a capability withdrawn, a check that broke).
	StoppedJudging []Change `json:"stoppedJudging"`
	Improvements   []Change `json:"improvements"`
	// Waived carry a waiver in head that they did not in base: reported,
	// never a regression (the waiver and its reason are public).
	Waived []Change `json:"waived"`
	// Added and Removed are checks (id@version) in one report only.
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// Surface are the MCP surface's changes; SurfaceNote says why they
	// could not be compared (declared against observed).
	Surface     []mcp.Drift `json:"surface"`
	SurfaceNote string      `json:"surfaceNote,omitempty"`
	// Fails is true when the change needs a person: a regression, a check
	// that stopped judging, or a surface change needing review.
	Fails bool `json:"fails"`
}

// DiffSide names one report.
type DiffSide struct {
	Kind    string   `json:"kind"`
	Name    string   `json:"name"`
	Digest  string   `json:"digest"`
	Suite   string   `json:"suite"`
	Overall *float64 `json:"overall"`
	Verdict string   `json:"verdict"`
}

// Change is one check's change.
type Change struct {
	Check   string        `json:"check"`
	From    checks.Status `json:"from"`
	To      checks.Status `json:"to"`
	Summary string        `json:"summary"`
	Waiver  string        `json:"waiver,omitempty"`
}

// ErrNotSameArtifact is returned for reports of different artifacts.
var ErrNotSameArtifact = errors.New("the reports are about different artifacts")

func side(r *Report) DiffSide {
	return DiffSide{Kind: string(r.Subject.Kind), Name: r.Subject.Name, Digest: r.Subject.Digest.SHA256,
		Suite: r.Suite.ID + "@" + r.Suite.Version, Overall: r.Score.Overall, Verdict: r.Score.Verdict}
}

// severity orders judging statuses; -1 for one that judges nothing.
func severity(s checks.Status) int {
	switch s {
	case checks.Pass:
		return 0
	case checks.Warn:
		return 1
	case checks.Fail:
		return 2
	}
	return -1
}

// Compare diffs two reports of the same artifact (kind and name).
func Compare(base, head *Report) (*Diff, error) {
	if base.Subject.Kind != head.Subject.Kind || base.Subject.Name != head.Subject.Name {
		return nil, fmt.Errorf("%w: %s %s and %s %s", ErrNotSameArtifact, base.Subject.Kind, base.Subject.Name, head.Subject.Kind, head.Subject.Name)
	}
	d := &Diff{Base: side(base), Head: side(head), SameSubject: base.Subject.Digest.SHA256 == head.Subject.Digest.SHA256,
		AxisDelta: map[checks.Axis]float64{}, Regressions: []Change{}, StoppedJudging: []Change{}, Improvements: []Change{},
		Waived: []Change{}, Added: []string{}, Removed: []string{}, Surface: []mcp.Drift{}}
	if b, h := base.Score.Overall, head.Score.Overall; b != nil && h != nil {
		v := *h - *b
		d.OverallDelta = &v
	}
	for _, ax := range checks.Axes {
		if b, h := base.Score.Axes[ax].Score, head.Score.Axes[ax].Score; b != nil && h != nil {
			d.AxisDelta[ax] = *h - *b
		}
	}
	was := map[string]policy.Result{}
	for _, r := range base.Results {
		was[r.Check] = r
	}
	now := map[string]bool{}
	for _, h := range head.Results {
		now[h.Check] = true
		b, ok := was[h.Check]
		if !ok {
			d.Added = append(d.Added, h.Check+"@"+h.Version)
			continue
		}
		if b.Version != h.Version {
			d.Removed = append(d.Removed, b.Check+"@"+b.Version)
			d.Added = append(d.Added, h.Check+"@"+h.Version)
		}
		c := Change{Check: h.Check, From: b.Status, To: h.Status, Summary: h.Summary}
		bs, hs := severity(b.Status), severity(h.Status)
		switch {
		case h.Waiver != nil && b.Waiver == nil && hs > 0:
			c.Waiver = h.Waiver.Reason
			d.Waived = append(d.Waived, c)
		case bs >= 0 && hs < 0:
			d.StoppedJudging = append(d.StoppedJudging, c)
		case bs >= 0 && hs > bs && h.Waiver == nil:
			d.Regressions = append(d.Regressions, c)
		case hs >= 0 && bs >= 0 && hs < bs:
			d.Improvements = append(d.Improvements, c)
		case bs < 0 && hs >= 0 && b.Status != h.Status:
			// A check that judges again: an improvement unless it fails.
			if hs == 0 {
				d.Improvements = append(d.Improvements, c)
			} else if h.Waiver == nil {
				d.Regressions = append(d.Regressions, c)
			}
		}
	}
	for _, b := range base.Results {
		if !now[b.Check] {
			d.Removed = append(d.Removed, b.Check+"@"+b.Version)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Removed)
	switch bs, hs := base.Surface, head.Surface; {
	case bs == nil && hs == nil:
	case bs == nil || hs == nil:
		d.SurfaceNote = "only one report has an MCP surface"
	default:
		drift, err := mcp.Compare(bs.Lock(), hs.Lock())
		if errors.Is(err, mcp.ErrNotComparable) {
			d.SurfaceNote = fmt.Sprintf("not comparable: the base surface is %s, the head surface %s; what source declares and what a running server shows are never compared", bs.Origin, hs.Origin)
		} else if err != nil {
			return nil, err
		} else {
			d.Surface = drift
		}
	}
	d.Fails = len(d.Regressions) > 0 || len(d.StoppedJudging) > 0 || mcp.NeedsReview(d.Surface)
	return d, nil
}

// Headline says in a line what the diff means for a gate.
func (d *Diff) Headline() string {
	var parts []string
	if n := len(d.Regressions); n > 0 {
		parts = append(parts, checks.Plural(n, "regression"))
	}
	if n := len(d.StoppedJudging); n > 0 {
		parts = append(parts, checks.Plural(n, "check")+" stopped judging")
	}
	if mcp.NeedsReview(d.Surface) {
		parts = append(parts, "surface changes need review")
	}
	if len(parts) == 0 {
		return "no regression"
	}
	return strings.Join(parts, ", ")
}
