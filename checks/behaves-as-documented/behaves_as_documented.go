package behavesasdocumented

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	behavessafely "github.com/metahub-ai/attest/checks/behaves-safely"
	"github.com/metahub-ai/attest/resolve"
)

// Check is behaves-as-documented.
var Check = &checks.Check{
	ID:          "behaves-as-documented",
	Version:     "1.0.0",
	Title:       "Does what its documentation says, in the sandbox",
	Axis:        checks.Behavior,
	Weight:      5,
	Tier:        checks.Replayable,
	Kinds:       resolve.Kinds,
	Needs:       []checks.Capability{checks.Sandbox, checks.Model},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	obs := in.Behavior
	if r, ok := behavessafely.Skipped(obs); ok {
		return r, nil
	}
	var (
		sum            float64
		graded, passed int
		ev             []checks.Evidence
		firstErr       string
	)
	for _, c := range obs.Cases {
		for _, r := range c.Runs {
			switch {
			case r.Refused != "":
				return checks.Result{Status: checks.Error, Summary: "the judge refused to grade: " + r.Refused,
					Evidence: []checks.Evidence{{Type: checks.EvidenceTranscript, SHA256: r.Transcript, Turns: r.Turns, Message: "case " + c.ID}}}, nil
			case r.Score == nil:
				if firstErr == "" {
					firstErr = fmt.Sprintf("case %s: %s", c.ID, r.Error)
				}
				continue
			}
			graded++
			sum += *r.Score
			if *r.Pass {
				passed++
			}
			msg := fmt.Sprintf("case %s: score %.2f", c.ID, *r.Score)
			if r.LimitHit != "" {
				msg += ", the " + r.LimitHit + " limit reached"
			}
			ev = append(ev, checks.Evidence{Type: checks.EvidenceTranscript, SHA256: r.Transcript, Turns: r.Turns, Message: msg})
		}
		if c.Stats != nil && c.Stats.N > 1 {
			ev = append(ev, checks.Metric("pass_hat_k:"+c.ID, c.Stats.PassHatK, "ratio"))
		}
	}
	if graded == 0 && firstErr == "" && len(obs.Errors) == 0 {
		return checks.NotApplicable("the behavioral run had no documented behaviour to grade (only hooks or probes ran)"), nil
	}
	if graded == 0 {
		if firstErr == "" && len(obs.Errors) > 0 {
			firstErr = obs.Errors[0]
		}
		return checks.Result{Status: checks.Error, Summary: "no run could be graded: " + firstErr}, nil
	}
	mean := sum / float64(graded)
	ev = append(ev, checks.Metric("mean_score", mean, "ratio"))
	summary := fmt.Sprintf("%d of %d graded run(s) passed; mean score %.2f", passed, graded, mean)
	switch {
	case passed == graded:
		return checks.Result{Status: checks.Pass, Summary: summary, Evidence: ev}, nil
	case passed == 0:
		return checks.Result{Status: checks.Fail, Summary: summary, Evidence: ev}, nil
	}
	return checks.Warning(mean, summary, ev...), nil
}
