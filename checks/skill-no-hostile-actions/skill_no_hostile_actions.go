package skillnohostileactions

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-no-hostile-actions.
var Check = &checks.Check{
	ID:          "skill-no-hostile-actions",
	Version:     "1.1.0",
	Title:       "Skill instructions take no hostile action",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var r instruct.Result
	docs := 0
	for d := range instruct.ModelDocs(s) {
		docs++
		instruct.Hostile(d, &r, false)
	}
	metric := checks.Metric("labelled_examples", float64(r.Labelled), "examples")
	return r.Outcome(docs, "no instructions to read", fmt.Sprintf("%s read, no hostile step", checks.Plural(docs, "file")), metric), nil
}
