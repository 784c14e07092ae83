package agentshapedeclared

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is agent-shape-declared.
var Check = &checks.Check{
	ID:          "agent-shape-declared",
	Version:     "1.0.0",
	Title:       "Every agent file declares its shape",
	Axis:        checks.Integrity,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindAgent},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	m := in.Subject.Manifests
	var ev []checks.Evidence
	n := 0
	if a := m.AgentJSON; a != nil {
		n++
		switch {
		case a.Err != nil:
			pos := checks.ErrPos(a.Err)
			ev = append(ev, checks.At(a.Path, pos.Line, pos.Col, "does not parse: "+a.Err.Error()))
		case a.V.Name == nil || strings.TrimSpace(a.V.Name.Value) == "":
			ev = append(ev, checks.At(a.Path, 1, 1, `no string "name"`))
		case (a.V.Instructions == nil || strings.TrimSpace(a.V.Instructions.Value) == "") && (a.V.Entry == nil || a.V.Entry.Value == ""):
			ev = append(ev, checks.At(a.Path, 1, 1, `neither "instructions" nor "entry"`))
		}
	}
	for _, a := range m.Agents {
		n++
		if a.Err != nil {
			pos := checks.ErrPos(a.Err)
			if pos.Line == 0 {
				pos.Line = 1
			}
			ev = append(ev, checks.At(a.Path, pos.Line, pos.Col, "frontmatter does not load: "+a.Err.Error()))
			continue
		}
		for _, key := range []string{"name", "description"} {
			v, pos, ok := a.V.String(key)
			if pos.Line == 0 {
				pos.Line = 1
			}
			if !ok || strings.TrimSpace(v) == "" {
				ev = append(ev, checks.At(a.Path, pos.Line, pos.Col, fmt.Sprintf("no string %q in the frontmatter", key)))
			}
		}
	}
	if n == 0 {
		return checks.Failed("no agent file found (agent.json, or agents/*.md with frontmatter)", checks.At(".", 0, 0, "")), nil
	}
	if len(ev) > 0 {
		return checks.Failed(fmt.Sprintf("%s: %s", ev[0].Path, ev[0].Message), ev...), nil
	}
	return checks.Passed(fmt.Sprintf("%s, each with a name and description", checks.Plural(n, "agent file"))), nil
}
