package mcpresourcesnotpoisoned

import (
	"context"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/poison"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-resources-not-poisoned.
var Check = &checks.Check{
	ID:          "mcp-resources-not-poisoned",
	Version:     "2.0.0",
	Title:       "Resources do not carry hidden instructions",
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

var sensitiveURI = lex.Lazy(`(?i)(/\.ssh/|/\.aws/credentials|/\.netrc\b|/\.git-credentials\b|/\.env\b|/id_(rsa|ed25519|ecdsa)\b|/\.cursor/mcp\.json|/\.claude\.json)`)

func exposes(kind, field, text string) string {
	if (field == "URI" || field == "URI template") && sensitiveURI.Re().MatchString(text) {
		return "exposes a credential path (" + text + ")"
	}
	return ""
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	return poison.Run(in, map[string]bool{"resource": true}, "resource", false, exposes), nil
}
