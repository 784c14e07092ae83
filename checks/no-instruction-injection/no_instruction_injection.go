package noinstructioninjection

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-instruction-injection.
var Check = &checks.Check{
	ID:          "no-instruction-injection",
	Version:     "2.4.0",
	Title:       "No instructions that override the user",
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
	var fails, warns []checks.Evidence
	read := 0
	for _, s := range set.Sinks {
		if s.Kind != facts.ModelInstruction || s.At.Medium == facts.MCPString || s.Ctx.Has(facts.Hidden) || !query.ModelRead(s.Ctx) {
			continue
		}
		read++
		steers, fail, own := query.Steer(set, s)
		if !steers {
			continue
		}
		ev := query.SinkEvidence(s, fmt.Sprintf("%s (%s: %q)", query.Steering[s.Instr.Family], s.Instr.Family, s.Instr.Phrase))
		if own {
			ev.Message += " from the host the artifact declares as its own"
		}
		if fail {
			fails = append(fails, ev)
		} else {
			warns = append(warns, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, fmt.Sprintf("%s read, nothing overrides the user", checks.Plural(read, "instruction"))), nil
}
