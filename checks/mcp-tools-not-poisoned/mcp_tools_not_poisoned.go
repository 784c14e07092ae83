package mcptoolsnotpoisoned

import (
	"context"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/poison"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-tools-not-poisoned.
var Check = &checks.Check{
	ID:          "mcp-tools-not-poisoned",
	Version:     "2.3.0",
	Title:       "Tool descriptions do not instruct the model",
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
	return poison.Run(in, map[string]bool{"tool": true, "server": true}, "tool", true, nil), nil
}
