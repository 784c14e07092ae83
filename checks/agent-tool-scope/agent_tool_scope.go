package agenttoolscope

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	skillallowedtools "github.com/metahub-ai/attest/checks/skill-allowed-tools"
	"github.com/metahub-ai/attest/resolve"
)

// Check is agent-tool-scope.
var Check = &checks.Check{
	ID:      "agent-tool-scope",
	Version: "1.1.0",
	Title:   "Agents declare a tool scope",
	Axis:    checks.Safety,
	Weight:  2,
	// bypassPermissions takes every approval from the user, as plugin
	// settings' defaultMode does (plugin-hooks-not-privileged blocks it)
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindAgent},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	m := in.Subject.Manifests
	var fails, warns []checks.Evidence
	var elevated []string
	n := 0
	for _, a := range m.Agents {
		if !a.Ok() {
			continue
		}
		n++
		if mode, pos, ok := a.V.String("permissionMode"); ok && mode == "bypassPermissions" {
			fails = append(fails, checks.At(a.Path, pos.Line, pos.Col, "permissionMode bypassPermissions"))
		}
		k := a.V.Get("tools")
		if k == nil {
			warns = append(warns, checks.At(a.Path, 1, 0, "no tools: the agent inherits every tool"))
			continue
		}
		for _, t := range skillallowedtools.Tools(k.Value) {
			if t == "*" || strings.HasPrefix(t, "Bash") || t == "Write" || t == "Edit" || t == "MultiEdit" || t == "WebFetch" {
				elevated = append(elevated, fmt.Sprintf("%s: %s", a.Path, t))
			}
		}
	}
	if a := m.AgentJSON; a.Ok() {
		n++
		if a.V.Doc.Root.Get("tools") == nil {
			warns = append(warns, checks.At(a.Path, 1, 0, "agent.json lists no tools"))
		}
		if mode, ok := a.V.Doc.Root.Get("permissionMode").String(); ok && mode == "bypassPermissions" {
			fails = append(fails, checks.At(a.Path, a.V.Doc.Root.Get("permissionMode").Pos.Line, 0, "permissionMode bypassPermissions"))
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s: %s", fails[0].Path, fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s: %s", warns[0].Path, warns[0].Message), warns...), nil
	case n == 0:
		return checks.NotApplicable("no agents"), nil
	case len(elevated) > 0:
		return checks.Passed("tool scopes declared; elevated: " + strings.Join(elevated, "; ")), nil
	}
	return checks.Passed(fmt.Sprintf("%s declare their tools", checks.Plural(n, "agent"))), nil
}
