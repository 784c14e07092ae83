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
	Version:     "1.0.0",
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
	switch {
	case len(r.Fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", r.Fails[0].Path, r.Fails[0].Line, r.Fails[0].Message), append(append(r.Fails, r.Warns...), metric)...), nil
	case len(r.Warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", r.Warns[0].Path, r.Warns[0].Line, r.Warns[0].Message), append(r.Warns, metric)...), nil
	case docs == 0:
		return checks.NotApplicable("no instructions to read"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, no hostile step", checks.Plural(docs, "file")), metric), nil
}
