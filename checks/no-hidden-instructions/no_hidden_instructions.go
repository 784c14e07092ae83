package nohiddeninstructions

import (
	"context"
	"fmt"
	"slices"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-hidden-instructions.
var Check = &checks.Check{
	ID:          "no-hidden-instructions",
	Version:     "1.5.0",
	Title:       "No instructions in hidden channels",
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

var skillKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools", "version"}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var r instruct.Result
	docs := 0
	for d := range instruct.ModelDocs(s) {
		docs++
		var extra []instruct.Channel
		if d.Path == "SKILL.md" {
			for _, b := range d.Front {
				key := b.Heading[len("frontmatter "):]
				if !slices.Contains(skillKeys, key) {
					extra = append(extra, instruct.Channel{Kind: "frontmatter key " + key, Text: b.Text, Line: b.Line})
				}
			}
		}
		instruct.HiddenInstructions(d, &r, extra)
	}
	return r.Outcome(docs, "no files a model reads", fmt.Sprintf("%s read, nothing hidden", checks.Plural(docs, "model-read file"))), nil
}
