package noresourceexhaustion

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-resource-exhaustion.
var Check = &checks.Check{
	ID:          "no-resource-exhaustion",
	Version:     "1.3.0",
	Title:       "Exhausts no resources on a normal call",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails []checks.Evidence
	for _, e := range set.Effects {
		if (e.Kind == facts.ForkLoop || e.Kind == facts.Unbounded) && query.Stands(e.Ctx) {
			fails = append(fails, query.EffectEvidence(e, fmt.Sprintf("starts processes without bound (%s)", e.What)))
		}
	}
	for _, s := range set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr.Family == "exhaust" && query.Stands(s.Ctx) && query.ModelRead(s.Ctx) {
			fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("tells the model to start work without bound (%q)", s.Instr.Phrase)))
		}
	}
	return query.Outcome(in.Subject, fails, nil, "no unbounded process start"), nil
}
