package mcpsurfacedescribed

import (
	"context"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/describe"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-surface-described.
var Check = &checks.Check{
	ID:          "mcp-surface-described",
	Version:     "1.1.0",
	Title:       "Prompts and resources are described",
	Axis:        checks.Care,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sf := surface.Of(in.Subject)
	var entries []describe.Entry
	for _, p := range sf.Prompts {
		entries = append(entries, describe.Entry{Kind: "prompt", Name: p.Name, Desc: p.Description, Site: p.Site})
	}
	for _, r := range sf.Resources {
		name := r.Name
		if name == "" {
			name = r.URI + r.URITemplate
		}
		entries = append(entries, describe.Entry{Kind: "resource", Name: name, Desc: r.Description, Site: r.Site})
	}
	unresolved := 0
	for _, u := range sf.Unresolved {
		if u.Kind == "prompt" || u.Kind == "resource" {
			unresolved++
		}
	}
	return describe.Judge(in.Subject, entries, unresolved, "registration", "no prompts or resources found"), nil
}
