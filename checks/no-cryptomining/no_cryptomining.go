package nocryptomining

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-cryptomining.
var Check = &checks.Check{
	ID:          "no-cryptomining",
	Version:     "1.3.0",
	Title:       "Mines no cryptocurrency",
	Axis:        checks.Safety,
	Weight:      5,
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
		if e.Kind == facts.Miner && query.Stands(e.Ctx) {
			fails = append(fails, query.EffectEvidence(e, "runs a cryptocurrency miner ("+e.What+")"))
		}
	}
	for _, s := range set.Sinks {
		if !query.Stands(s.Ctx) || s.Kind == facts.ModelInstruction {
			continue
		}
		for _, l := range s.DestLabels {
			if l == "pool" {
				fails = append(fails, query.SinkEvidence(s, "reaches a mining pool ("+s.Dest+")"))
			}
		}
	}
	return query.Outcome(in.Subject, fails, nil, fmt.Sprintf("%s followed, no miner", checks.Plural(len(set.Sinks), "sink"))), nil
}
