package policy

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/metahub-ai/attest/checks"
)

// FormulaDefault is the id of the only formula so far (ARCHITECTURE §3.3).
const FormulaDefault = "attest-default@1"

// Verdicts.
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictInsufficient = "insufficient"
)

// AxisWeights weigh the axes in the overall score.
var AxisWeights = map[checks.Axis]float64{checks.Safety: 4, checks.Behavior: 3, checks.Integrity: 2, checks.Care: 1}

// CoverageFloor: below this share of the total axis weight measured, there
// is no overall score.
const CoverageFloor = 0.5

// AxisScore is one axis: its score (nil when nothing judged it) and the
// share of its weight that was measured.
type AxisScore struct {
	Score    *float64 `json:"score"`
	Coverage float64  `json:"coverage"`
}

// Score is the scored verdict.
type Score struct {
	Formula  string                    `json:"formula"`
	Overall  *float64                  `json:"overall"`
	Verdict  string                    `json:"verdict"`
	Axes     map[checks.Axis]AxisScore `json:"axes"`
	Blocking []string                  `json:"blocking"`
}

// Catalog supplies the catalog entry of a check version. The run uses the
// live catalog; verification uses the pinned catalog, never the report.
type Catalog interface {
	Entry(id, version string) (checks.Entry, bool)
}

// ErrUnknownCheck means a result names a check version the catalog does
// not know, so the score cannot be confirmed.
var ErrUnknownCheck = errors.New("unknown check version")

// Compute scores results with attest-default@1. minScore, when set, makes
// an overall below it (or no overall) a fail.
func Compute(results []Result, cat Catalog, minScore *float64) (Score, error) {
	type acc struct{ covered, uncovered, meanW, meanSum float64 }
	axes := map[checks.Axis]*acc{}
	for _, a := range checks.Axes {
		axes[a] = &acc{}
	}
	var unknown []string
	var blocking []string
	safetyBlocked := false
	insufficient := false
	for _, r := range results {
		e, ok := cat.Entry(r.Check, r.Version)
		if !ok {
			unknown = append(unknown, r.Check+"@"+r.Version)
			continue
		}
		a, ok := axes[e.Axis]
		if !ok {
			unknown = append(unknown, r.Check+"@"+r.Version)
			continue
		}
		w := float64(e.Weight)
		switch r.Status {
		case checks.Neutral:
		case checks.Pass, checks.Warn, checks.Fail:
			a.covered += w
			if r.Waiver != nil {
				break // judged, published, but neither raises nor lowers the score
			}
			a.meanW += w
			a.meanSum += w * value(r)
			if r.Status == checks.Fail && e.Blocking {
				blocking = append(blocking, r.Check)
				if e.Axis == checks.Safety {
					safetyBlocked = true
				}
			}
		case checks.Skip:
			if r.SkipReason == checks.SkipPolicy {
				a.covered += w
				a.meanW += w // a disabled check scores 0
				break
			}
			a.uncovered += w
			if e.Blocking && r.SkipReason != checks.SkipCapability {
				insufficient = true // a limit reached never clears an artifact
			}
		case checks.Error:
			a.uncovered += w
			if e.Blocking {
				insufficient = true
			}
		default:
			return Score{}, fmt.Errorf("result %s: unknown status %q", r.Check, r.Status)
		}
	}
	if len(unknown) > 0 {
		return Score{}, fmt.Errorf("%w: %v", ErrUnknownCheck, unknown)
	}
	s := Score{Formula: FormulaDefault, Axes: map[checks.Axis]AxisScore{}, Blocking: []string{}}
	var num, den float64
	for _, ax := range checks.Axes {
		a := axes[ax]
		as := AxisScore{}
		if t := a.covered + a.uncovered; t > 0 {
			as.Coverage = a.covered / t
		}
		if as.Coverage > 0 && a.meanW > 0 {
			v := a.meanSum / a.meanW * 100
			if ax == checks.Safety && safetyBlocked {
				v = 0
			}
			num += v * AxisWeights[ax] * as.Coverage
			den += AxisWeights[ax] * as.Coverage
			v = round(v, 1)
			as.Score = &v
		}
		as.Coverage = round(as.Coverage, 2)
		s.Axes[ax] = as
	}
	var total float64
	for _, w := range AxisWeights {
		total += w
	}
	if den > 0 && den/total >= CoverageFloor {
		o := round(num/den, 1)
		s.Overall = &o
	}
	slices.Sort(blocking)
	s.Blocking = slices.Compact(append(s.Blocking, blocking...))
	switch {
	case len(s.Blocking) > 0:
		s.Verdict = VerdictFail
	case minScore != nil && (s.Overall == nil || *s.Overall < *minScore):
		s.Verdict = VerdictFail
	case s.Overall == nil || insufficient:
		s.Verdict = VerdictInsufficient
	default:
		s.Verdict = VerdictPass
	}
	return s, nil
}

// value is a judged result's contribution: pass 1, fail 0, warn its own
// score or 0.5.
func value(r Result) float64 {
	switch r.Status {
	case checks.Pass:
		return 1
	case checks.Warn:
		if r.Score != nil {
			return *r.Score
		}
		return 0.5
	}
	return 0
}

// round rounds half away from zero to d decimals.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
