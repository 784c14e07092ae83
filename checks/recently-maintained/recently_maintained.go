package recentlymaintained

import (
	"context"
	"fmt"
	"math"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is recently-maintained.
var Check = &checks.Check{
	ID:          "recently-maintained",
	Version:     "1.0.0",
	Title:       "Days since the last commit",
	Axis:        checks.Care,
	Weight:      0,
	Tier:        checks.Sampled,
	Kinds:       resolve.Kinds,
	Needs:       []checks.Capability{checks.Clock},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	ct := in.Subject.CommitTime
	if ct.IsZero() {
		return checks.NotApplicable(fmt.Sprintf("no commit time: the target came from %s, not git", in.Subject.Source.Type)), nil
	}
	days := math.Floor(in.StartedAt.Sub(ct).Hours() / 24)
	if days < 0 {
		days = 0
	}
	return checks.Passed(fmt.Sprintf("last commit %s, %.0f days before this run", ct.UTC().Format("2006-01-02"), days),
		checks.Metric("days_since_last_commit", days, "days")), nil
}
