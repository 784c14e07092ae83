package namedeclared

import (
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is name-declared.
var Check = &checks.Check{
	ID:          "name-declared",
	Version:     "1.0.0",
	Title:       "Name declared, canonical and consistent",
	Axis:        checks.Integrity,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Name is a declared name, normalised for its ecosystem.
type Name struct {
	Raw, Normal string
	File        string
	Pos         manifest.Pos
}

// Names lists the names the artifact's manifests declare.
func Names(s *resolve.Subject) []Name {
	m := s.Manifests
	var out []Name
	add := func(raw, normal, file string, pos manifest.Pos) {
		if strings.TrimSpace(raw) != "" {
			out = append(out, Name{Raw: raw, Normal: normal, File: file, Pos: pos})
		}
	}
	if m.Skill.Ok() {
		if v, pos, ok := m.Skill.V.String("name"); ok {
			add(v, v, m.Skill.Path, pos)
		}
	}
	if m.Plugin.Ok() && m.Plugin.V.Name != nil {
		add(m.Plugin.V.Name.Value, m.Plugin.V.Name.Value, m.Plugin.Path, m.Plugin.V.Name.Pos)
	}
	if m.AgentJSON.Ok() && m.AgentJSON.V.Name != nil {
		add(m.AgentJSON.V.Name.Value, m.AgentJSON.V.Name.Value, m.AgentJSON.Path, m.AgentJSON.V.Name.Pos)
	}
	if m.Package.Ok() && m.Package.V.Name != nil {
		n := m.Package.V.Name.Value
		bare := n
		if strings.HasPrefix(n, "@") {
			if _, after, ok := strings.Cut(n, "/"); ok {
				bare = after
			}
		}
		add(n, bare, m.Package.Path, m.Package.V.Name.Pos)
	}
	if m.Pyproject.Ok() && m.Pyproject.V.Name != nil {
		n := m.Pyproject.V.Name.Value
		add(n, manifest.NormalizePyName(n), m.Pyproject.Path, m.Pyproject.V.Name.Pos)
	}
	if m.Cargo.Ok() && m.Cargo.V.Name != nil {
		n := m.Cargo.V.Name.Value
		add(n, strings.ReplaceAll(n, "_", "-"), m.Cargo.Path, m.Cargo.V.Name.Pos)
	}
	if m.GoMod.Ok() && m.GoMod.V.Module != nil {
		n := resolve.GoModuleName(m.GoMod.V.Module.Value)
		add(n, n, m.GoMod.Path, m.GoMod.V.Module.Pos)
	}
	if m.ServerJSON.Ok() && m.ServerJSON.V.Name != nil {
		n := m.ServerJSON.V.Name.Value
		bare := n
		if i := strings.LastIndex(n, "/"); i >= 0 {
			bare = n[i+1:]
		}
		add(n, bare, m.ServerJSON.Path, m.ServerJSON.V.Name.Pos)
	}
	if s.Kind == resolve.KindAgent && len(out) == 0 {
		// Markdown agents name themselves one by one; the first stands
		// for the artifact only when nothing else names it.
		for _, a := range m.Agents {
			if a.Ok() {
				if v, pos, ok := a.V.String("name"); ok {
					add(v, v, a.Path, pos)
					break
				}
			}
		}
	}
	return out
}

func comparable(n string) string { return manifest.NormalizePyName(n) }

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	names := Names(in.Subject)
	if len(names) == 0 {
		return checks.Failed("no manifest declares a name", checks.At(".", 0, 0, "no name in any manifest")), nil
	}
	var warns []checks.Evidence
	for _, n := range names {
		if !lex.Kebab(n.Normal) {
			warns = append(warns, checks.At(n.File, n.Pos.Line, n.Pos.Col, fmt.Sprintf("%q is not lowercase kebab-case", n.Raw)))
		}
	}
	first := names[0]
	for _, n := range names[1:] {
		if comparable(n.Normal) != comparable(first.Normal) {
			warns = append(warns, checks.At(n.File, n.Pos.Line, n.Pos.Col, fmt.Sprintf("names the artifact %q but %s names it %q", n.Raw, first.File, first.Raw)))
		}
	}
	if len(warns) > 0 {
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	}
	return checks.Passed(fmt.Sprintf("named %q", first.Raw), checks.At(first.File, first.Pos.Line, first.Pos.Col, "")), nil
}
