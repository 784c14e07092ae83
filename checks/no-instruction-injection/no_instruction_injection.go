package noinstructioninjection

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-instruction-injection.
var Check = &checks.Check{
	ID:          "no-instruction-injection",
	Version:     "1.1.0",
	Title:       "No instructions that override the user",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
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
		instruct.Injection(d, &r)
	}
	if a := s.Manifests.AgentJSON; a.Ok() && a.V.Instructions != nil {
		docs++
		instruct.Injection(instruct.Doc{Path: a.Path, Body: a.V.Instructions.Value, LineBase: a.V.Instructions.Pos.Line - 1}, &r)
	}
	metric := checks.Metric("labelled_examples", float64(r.Labelled), "examples")
	return r.Outcome(docs, "no files a model reads", fmt.Sprintf("%s read, nothing addressed to the model", checks.Plural(docs, "model-read file")), metric), nil
}
