package agentinstructions

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/resolve"
)

// Check is agent-instructions.
var Check = &checks.Check{
	ID:          "agent-instructions",
	Version:     "1.0.0",
	Title:       "Every agent has real instructions",
	Axis:        checks.Care,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindAgent},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Minimum words: agentPromptMinWords for a markdown agent, and for the
// instructions of agent.json.
const (
	MinPromptWords       = 40
	MinInstructionsWords = 20
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	worst, worstScore, n := "", 1.0, 0
	var ev []checks.Evidence
	for _, a := range s.Manifests.Agents {
		if !a.Ok() {
			continue
		}
		n++
		w := prose.Words(prose.Parse(string(a.V.Body)).Prose)
		if w < MinPromptWords {
			sc := float64(w) / MinPromptWords
			ev = append(ev, checks.At(a.Path, a.V.BodyLine, 1, fmt.Sprintf("the prompt has %s, under %d", checks.Plural(w, "word"), MinPromptWords)))
			if sc < worstScore {
				worst, worstScore = ev[len(ev)-1].Where(), sc
			}
		}
	}
	if aj := s.Manifests.AgentJSON; aj.Ok() {
		n++
		w := 0
		line := 1
		if aj.V.Instructions != nil {
			w, line = prose.Words(aj.V.Instructions.Value), aj.V.Instructions.Pos.Line
		}
		if w < MinInstructionsWords {
			sc := float64(w) / MinInstructionsWords
			ev = append(ev, checks.At(aj.Path, line, 1, fmt.Sprintf("instructions have %s, under %d", checks.Plural(w, "word"), MinInstructionsWords)))
			if sc < worstScore {
				worst, worstScore = ev[len(ev)-1].Where(), sc
			}
		}
	}
	if n == 0 {
		return checks.NotApplicable("no readable agent file (agent-shape-declared reports it)"), nil
	}
	if len(ev) > 0 {
		return checks.Warning(worstScore, worst, ev...), nil
	}
	return checks.Passed(fmt.Sprintf("%s with instructions of sufficient length", checks.Plural(n, "agent"))), nil
}
