package manifestpresent

import (
	"context"
	"errors"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is manifest-present.
var Check = &checks.Check{
	ID:          "manifest-present",
	Version:     "1.1.0",
	Title:       "Manifest present and well-formed",
	Axis:        checks.Integrity,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Forms:       []resolve.Form{resolve.FormClientConfig},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var mcpManifests = []string{"package.json", "pyproject.toml", "setup.py", "setup.cfg", "go.mod", "Cargo.toml", "server.json"}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	m := s.Manifests
	var ev []checks.Evidence
	var problems []string
	switch s.Kind {
	case resolve.KindSkill:
		if m.Skill == nil {
			problems = append(problems, "no SKILL.md")
		}
	case resolve.KindPlugin:
		if m.Plugin == nil {
			problems = append(problems, "no .claude-plugin/plugin.json")
		}
	case resolve.KindAgent:
		if m.AgentJSON == nil && len(m.Agents) == 0 {
			problems = append(problems, "no agent.json and no agent markdown file with frontmatter")
		}
	case resolve.KindMCP:
		found := s.Form() == resolve.FormClientConfig // the configuration is its manifest
		for _, p := range mcpManifests {
			if _, ok := s.Inventory.File(p); ok {
				found = true
			}
		}
		if !found {
			msg := "no package.json, pyproject.toml, setup.py, setup.cfg, go.mod, Cargo.toml or server.json"
			if len(m.Requirements) > 0 {
				msg = "requirements.txt lists dependencies but nothing declares the server; add a pyproject.toml"
			}
			problems = append(problems, msg)
		}
	}
	if len(problems) > 0 {
		ev = append(ev, checks.At(".", 0, 0, problems[0]))
	}
	parsed := 0
	for _, st := range m.All() {
		if st.Err != nil {
			if errors.Is(st.Err, manifest.ErrNoFrontmatter) {
				continue // skill-frontmatter's finding
			}
			pos := checks.ErrPos(st.Err)
			problems = append(problems, fmt.Sprintf("%s cannot be parsed", st.Path))
			ev = append(ev, checks.At(st.Path, pos.Line, pos.Col, "cannot be parsed: "+st.Err.Error()))
			continue
		}
		parsed++
		for _, d := range st.Duplicates {
			problems = append(problems, fmt.Sprintf("%s defines %q twice", st.Path, d.Key))
			ev = append(ev, checks.At(st.Path, d.Pos.Line, d.Pos.Col, fmt.Sprintf("duplicate key %q", d.Key)))
		}
	}
	if len(problems) > 0 {
		summary := problems[0]
		if len(problems) > 1 {
			summary += fmt.Sprintf(" (and %d more)", len(problems)-1)
		}
		return checks.Failed(summary, ev...), nil
	}
	return checks.Passed(fmt.Sprintf("%s parsed, no duplicate keys", checks.Plural(parsed, "manifest"))), nil
}
