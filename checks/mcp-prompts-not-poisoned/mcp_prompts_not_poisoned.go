package mcppromptsnotpoisoned

import (
	"context"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/poison"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-prompts-not-poisoned.
var Check = &checks.Check{
	ID:          "mcp-prompts-not-poisoned",
	Version:     "2.3.0",
	Title:       "Prompts do not carry hidden instructions",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	return poison.Run(in, map[string]bool{"prompt": true}, "prompt", false, nil), nil
}
