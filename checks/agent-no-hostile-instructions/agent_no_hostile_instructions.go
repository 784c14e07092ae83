package agentnohostileinstructions

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/resolve"
)

// Check is agent-no-hostile-instructions.
var Check = &checks.Check{
	ID:          "agent-no-hostile-instructions",
	Version:     "1.1.0",
	Title:       "Agent instructions take no hostile action",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindAgent},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var r instruct.Result
	n := 0
	for _, a := range s.Manifests.Agents {
		if d, ok := instruct.Load(s, a.Path); ok {
			n++
			instruct.Hostile(d, &r, true)
		}
	}
	if a := s.Manifests.AgentJSON; a.Ok() && a.V.Instructions != nil {
		n++
		instruct.Hostile(instruct.Doc{Path: a.Path, Body: a.V.Instructions.Value, LineBase: a.V.Instructions.Pos.Line - 1}, &r, true)
	}
	return r.Outcome(n, "no agent instructions", fmt.Sprintf("%s read, no hostile instruction", checks.Plural(n, "agent"))), nil
}
