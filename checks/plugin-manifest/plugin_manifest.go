package pluginmanifest

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is plugin-manifest.
var Check = &checks.Check{
	ID:          "plugin-manifest",
	Version:     "1.0.0",
	Title:       "Plugin manifest loads",
	Axis:        checks.Integrity,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindPlugin},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	p := in.Subject.Manifests.Plugin
	if p == nil {
		return checks.Failed("no .claude-plugin/plugin.json", checks.At(".", 0, 0, "no plugin manifest")), nil
	}
	if p.Err != nil {
		pos := checks.ErrPos(p.Err)
		return checks.Failed(p.Path+" does not parse", checks.At(p.Path, pos.Line, pos.Col, p.Err.Error())), nil
	}
	var ev []checks.Evidence
	for _, d := range p.V.Doc.Duplicates {
		ev = append(ev, checks.At(p.Path, d.Pos.Line, d.Pos.Col, fmt.Sprintf("duplicate key %q", d.Key)))
	}
	name := p.V.Name
	switch {
	case p.V.Doc.Root.Get("name") == nil:
		ev = append(ev, checks.At(p.Path, 1, 1, `no "name"`))
	case name == nil:
		ev = append(ev, checks.At(p.Path, p.V.Doc.Root.Get("name").Pos.Line, 0, `"name" is not a string`))
	case strings.TrimSpace(name.Value) == "":
		ev = append(ev, checks.At(p.Path, name.Pos.Line, name.Pos.Col, `"name" is empty`))
	}
	if len(ev) > 0 {
		return checks.Failed(p.Path+": "+ev[0].Message, ev...), nil
	}
	if p.Path != ".claude-plugin/plugin.json" {
		return checks.Passed(fmt.Sprintf("plugin %q declared in %s (the usual place is .claude-plugin/plugin.json)", name.Value, p.Path)), nil
	}
	return checks.Passed(fmt.Sprintf("plugin %q", name.Value)), nil
}
