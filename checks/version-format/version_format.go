package versionformat

import (
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is version-format.
var Check = &checks.Check{
	ID:          "version-format",
	Version:     "1.0.0",
	Title:       "Version declared and well-formed",
	Axis:        checks.Integrity,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// pep440 is PEP 440's canonical public version pattern (Appendix B).
var pep440 = lex.Lazy(`(?i)^v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$`)

// IsSemver accepts strict semver with an optional leading v.
func IsSemver(v string) bool { return checks.IsSemver(strings.TrimPrefix(v, "v")) }

// IsPEP440 accepts a PEP 440 version.
func IsPEP440(v string) bool { return pep440.Re().MatchString(v) }

type decl struct {
	file, value string
	pos         manifest.Pos
	pep440      bool
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	m := s.Manifests
	var decls []decl
	var missing []checks.Evidence
	optional := false // absent is neutral
	note := ""
	addField := func(path string, f *manifest.StringField, pep bool) {
		if f == nil {
			missing = append(missing, checks.At(path, 1, 0, "no version"))
			return
		}
		decls = append(decls, decl{path, f.Value, f.Pos, pep})
	}
	switch s.Kind {
	case resolve.KindSkill:
		optional = true
		if m.Skill.Ok() {
			if v, pos, ok := m.Skill.V.String("version"); ok {
				decls = append(decls, decl{m.Skill.Path, v, pos, false})
			} else if md := m.Skill.V.Get("metadata"); md != nil {
				for i := 0; i+1 < len(md.Value.Content); i += 2 {
					if k := md.Value.Content[i]; k.Value == "version" {
						decls = append(decls, decl{m.Skill.Path, md.Value.Content[i+1].Value, manifest.Pos{Line: k.Line + 1, Col: k.Column}, false})
					}
				}
			}
		}
	case resolve.KindPlugin:
		if m.Plugin.Ok() {
			addField(m.Plugin.Path, m.Plugin.V.Version, false)
		}
	case resolve.KindAgent:
		if m.AgentJSON.Ok() {
			addField(m.AgentJSON.Path, m.AgentJSON.V.Version, false)
		} else {
			optional = true
			for _, a := range m.Agents {
				if a.Ok() {
					if v, pos, ok := a.V.String("version"); ok {
						decls = append(decls, decl{a.Path, v, pos, false})
					}
				}
			}
		}
	case resolve.KindMCP:
		any := false
		if m.Package.Ok() {
			any = true
			addField(m.Package.Path, m.Package.V.Version, false)
		}
		if m.Pyproject.Ok() {
			any = true
			if m.Pyproject.V.DynamicVersion && m.Pyproject.V.Version == nil {
				note = "pyproject.toml declares a dynamic version, set at build time"
			} else {
				addField(m.Pyproject.Path, m.Pyproject.V.Version, true)
			}
		}
		if m.Cargo.Ok() {
			any = true
			addField(m.Cargo.Path, m.Cargo.V.Version, false)
		}
		if m.ServerJSON.Ok() {
			any = true
			addField(m.ServerJSON.Path, m.ServerJSON.V.Version, false)
		}
		if !any && m.GoMod.Ok() {
			return checks.NotApplicable("a Go module's versions are its VCS tags"), nil
		}
		if !any {
			missing = append(missing, checks.At(".", 0, 0, "no manifest declares a version"))
		}
	}
	var bad []checks.Evidence
	for _, d := range decls {
		ok := IsSemver(d.value)
		kind := "semver"
		if d.pep440 {
			ok, kind = IsPEP440(d.value), "PEP 440"
		}
		if !ok {
			bad = append(bad, checks.At(d.file, d.pos.Line, d.pos.Col, fmt.Sprintf("version %q is not valid %s", d.value, kind)))
		}
	}
	switch {
	case len(bad) > 0:
		return checks.Warning(0.25, bad[0].Message, append(bad, missing...)...), nil
	case len(missing) > 0 && !(len(decls) > 0 || note != ""):
		return checks.Warning(0, "no version declared", missing...), nil
	case len(missing) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s declares no version", missing[0].Path), missing...), nil
	case len(decls) == 0 && note != "":
		return checks.Passed(note), nil
	case len(decls) == 0 && optional:
		return checks.NotApplicable("no version declared; optional for this kind"), nil
	}
	r := checks.Passed(fmt.Sprintf("version %s", decls[0].value))
	if note != "" {
		r.Detail = note
	}
	return r, nil
}
