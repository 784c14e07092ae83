package noremoteshell

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-remote-shell.
var Check = &checks.Check{
	ID:          "no-remote-shell",
	Version:     "1.3.0",
	Title:       "No remote shell",
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
		if e.Kind == facts.RemoteShell && query.Stands(e.Ctx) {
			fails = append(fails, query.EffectEvidence(e, "a remote shell: "+e.What))
		}
	}
	for _, f := range set.Flows {
		if f.From.Label == facts.Socket && (f.To.Kind == facts.ExecShell || f.To.Kind == facts.ExecCode) && query.Stands(f.From.Ctx|f.To.Ctx) {
			fails = append(fails, query.FlowEvidence(f, "is run by"))
		}
	}
	return query.Outcome(in.Subject, fails, nil, fmt.Sprintf("%s followed, no shell is bound to a connection", checks.Plural(len(set.Sinks), "sink"))), nil
}
