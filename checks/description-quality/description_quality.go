package descriptionquality

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is description-quality.
var Check = &checks.Check{
	ID:          "description-quality",
	Version:     "1.0.0",
	Title:       "The description says what and when",
	Axis:        checks.Care,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MinWords is descriptionMinWords.
const MinWords = 8

type desc struct {
	file, text string
	pos        manifest.Pos
}

// Descriptions lists the descriptions that introduce the artifact, the one
// its kind reads first first.
func Descriptions(s *resolve.Subject) []desc {
	m := s.Manifests
	var out []desc
	str := func(file string, f *manifest.StringField) {
		if f != nil {
			out = append(out, desc{file, f.Value, f.Pos})
		}
	}
	front := func(p *resolve.Parsed[manifest.Frontmatter]) {
		if p.Ok() {
			if v, pos, ok := p.V.String("description"); ok {
				out = append(out, desc{p.Path, v, pos})
			}
		}
	}
	switch s.Kind {
	case resolve.KindSkill:
		front(m.Skill)
	case resolve.KindPlugin:
		if m.Plugin.Ok() {
			str(m.Plugin.Path, m.Plugin.V.Description)
		}
	case resolve.KindAgent:
		if m.AgentJSON.Ok() {
			str(m.AgentJSON.Path, m.AgentJSON.V.Description)
		}
		for _, a := range m.Agents {
			front(a)
		}
	}
	if m.ServerJSON.Ok() {
		str(m.ServerJSON.Path, m.ServerJSON.V.Description)
	}
	if m.Package.Ok() {
		str(m.Package.Path, m.Package.V.Description)
	}
	if m.Pyproject.Ok() {
		str(m.Pyproject.Path, m.Pyproject.V.Description)
	}
	if m.Cargo.Ok() {
		str(m.Cargo.Path, m.Cargo.V.Description)
	}
	return out
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	ds := Descriptions(in.Subject)
	if len(ds) == 0 || prose.Words(ds[0].text) == 0 {
		return checks.Failed("no description: " + where[in.Subject.Kind]), nil
	}
	d := ds[0]
	w := prose.Words(d.text)
	ev := checks.At(d.file, d.pos.Line, d.pos.Col, checks.Plural(w, "word"))
	if w < MinWords {
		return checks.Warning(float64(w)/MinWords, fmt.Sprintf("%s:%d the description has %s, under %d", d.file, d.pos.Line, checks.Plural(w, "word"), MinWords), ev), nil
	}
	return checks.Passed(fmt.Sprintf("%s:%d describes it in %s", d.file, d.pos.Line, checks.Plural(w, "word"))), nil
}

var where = map[resolve.Kind]string{
	resolve.KindSkill:  "SKILL.md frontmatter has no description",
	resolve.KindPlugin: "plugin.json has no description",
	resolve.KindAgent:  "neither agent.json nor the agent files have a description",
	resolve.KindMCP:    "no description in server.json, package.json, pyproject.toml or Cargo.toml",
}
