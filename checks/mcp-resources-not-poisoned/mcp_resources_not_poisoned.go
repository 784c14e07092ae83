package mcpresourcesnotpoisoned

import (
	"context"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/poison"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-resources-not-poisoned.
var Check = &checks.Check{
	ID:          "mcp-resources-not-poisoned",
	Version:     "2.4.0",
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

// exposes fails a resource URI whose path the vocabulary labels as data
// the user would not hand a stranger (a credential store, a .env file, a
// keychain, another agent's configuration); a public key is none.
func exposes(kind, field, text string) string {
	if field != "URI" && field != "URI template" {
		return ""
	}
	p := text
	if _, rest, ok := strings.Cut(p, "://"); ok {
		p = rest
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	labels := vocab.PathLabels(p)
	if labels.Has("public") {
		return ""
	}
	for _, l := range labels {
		if facts.Label(l).Secret() {
			return "exposes a credential path (" + text + ", " + l + ")"
		}
	}
	return ""
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	return poison.Run(in, map[string]bool{"resource": true}, "resource", false, exposes), nil
}
