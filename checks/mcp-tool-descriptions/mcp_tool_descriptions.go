package mcptooldescriptions

import (
	"context"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/describe"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-tool-descriptions.
var Check = &checks.Check{
	ID:          "mcp-tool-descriptions",
	Version:     "1.1.0",
	Title:       "Tools are described",
	Axis:        checks.Care,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sf := surface.Of(in.Subject)
	var entries []describe.Entry
	for _, t := range sf.Tools {
		entries = append(entries, describe.Entry{Kind: "tool", Name: t.Name, Desc: t.Description, Site: t.Site})
	}
	unresolved := 0
	for _, u := range sf.Unresolved {
		if u.Kind == "tool" {
			unresolved++
		}
	}
	return describe.Judge(in.Subject, entries, unresolved, "tool", "no tools found"), nil
}
