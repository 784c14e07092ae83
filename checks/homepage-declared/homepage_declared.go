package homepagedeclared

import (
	"context"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is homepage-declared.
var Check = &checks.Check{
	ID:          "homepage-declared",
	Version:     "1.0.0",
	Title:       "A homepage or repository is declared",
	Axis:        checks.Care,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// forges host Go modules whose path is also their repository.
var forges = []string{"github.com/", "gitlab.com/", "bitbucket.org/", "codeberg.org/", "git.sr.ht/", "gitea.com/"}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	m := in.Subject.Manifests
	found := func(file, what, v string) (checks.Result, error) {
		return checks.Passed(fmt.Sprintf("%s declares %s %s", file, what, v)), nil
	}
	if p := m.Package; p.Ok() {
		for _, f := range []struct {
			k string
			v *manifest.StringField
		}{{"homepage", p.V.Homepage}, {"repository", p.V.Repository}} {
			if f.v != nil && strings.TrimSpace(f.v.Value) != "" {
				return found(p.Path, f.k, f.v.Value)
			}
		}
	}
	if p := m.Pyproject; p.Ok() && len(p.V.URLs) > 0 {
		return found(p.Path, "[project.urls] "+p.V.URLs[0].Name, p.V.URLs[0].Path)
	}
	if c := m.Cargo; c.Ok() {
		for _, f := range []*manifest.StringField{c.V.Homepage, c.V.Repository} {
			if f != nil && f.Value != "" {
				return found(c.Path, "", f.Value)
			}
		}
	}
	if g := m.GoMod; g.Ok() && g.V.Module != nil {
		for _, f := range forges {
			if strings.HasPrefix(g.V.Module.Value, f) {
				return found(g.Path, "module", g.V.Module.Value)
			}
		}
	}
	for _, d := range []*resolve.Parsed[manifest.JSONDoc]{jsonDoc(m.Plugin), jsonDoc(m.ServerJSON), jsonDoc(m.AgentJSON)} {
		if d == nil {
			continue
		}
		for _, k := range []string{"homepage", "repository", "repository.url", "website", "websiteUrl", "website_url"} {
			if v, ok := d.V.Root.Path(k).String(); ok && strings.TrimSpace(v) != "" {
				return found(d.Path, k, v)
			}
		}
	}
	if sk := m.Skill; sk.Ok() {
		if md := sk.V.Get("metadata"); md != nil && md.Value != nil && md.Value.Kind == yaml.MappingNode {
			c := md.Value.Content
			for i := 0; i+1 < len(c); i += 2 {
				if k := c[i].Value; (k == "homepage" || k == "repository") && c[i+1].Kind == yaml.ScalarNode && c[i+1].Value != "" {
					return found(sk.Path, "metadata."+k, c[i+1].Value)
				}
			}
		}
		if in.Subject.Kind == resolve.KindSkill {
			return checks.NotApplicable("the skill format has no homepage field"), nil
		}
	}
	return checks.Warning(0.5, "no homepage or repository declared"), nil
}

// jsonDoc views a parsed JSON manifest as its document.
func jsonDoc[T any](p *resolve.Parsed[T]) *resolve.Parsed[manifest.JSONDoc] {
	if !p.Ok() {
		return nil
	}
	var doc *manifest.JSONDoc
	switch v := any(p.V).(type) {
	case *manifest.Plugin:
		doc = v.Doc
	case *manifest.ServerJSON:
		doc = v.Doc
	case *manifest.AgentJSON:
		doc = v.Doc
	}
	if doc == nil {
		return nil
	}
	return &resolve.Parsed[manifest.JSONDoc]{Path: p.Path, V: doc}
}
