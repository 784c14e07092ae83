package skillfrontmatter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is skill-frontmatter.
var Check = &checks.Check{
	ID:          "skill-frontmatter",
	Version:     "1.1.0",
	Title:       "SKILL.md frontmatter loads",
	Axis:        checks.Integrity,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sk := in.Subject.Manifests.Skill
	if sk == nil {
		return checks.Failed("no SKILL.md", checks.At(".", 0, 0, "SKILL.md is missing")), nil
	}
	if sk.Err != nil {
		if errors.Is(sk.Err, manifest.ErrNoFrontmatter) {
			return checks.Failed("SKILL.md has no frontmatter", checks.At(sk.Path, 1, 1, sk.Err.Error())), nil
		}
		pos := checks.ErrPos(sk.Err)
		if pos.Line == 0 {
			pos.Line = 1
		}
		return checks.Failed("SKILL.md frontmatter does not load: "+sk.Err.Error(), checks.At(sk.Path, pos.Line, pos.Col, sk.Err.Error())), nil
	}
	fm := sk.V
	var ev []checks.Evidence
	for _, d := range fm.Duplicates {
		if d.Key == "name" || d.Key == "description" {
			ev = append(ev, checks.At(sk.Path, d.Pos.Line, d.Pos.Col, fmt.Sprintf("%q is defined twice", d.Key)))
		}
	}
	for _, key := range []string{"name", "description"} {
		k := fm.Get(key)
		switch {
		case k == nil:
			ev = append(ev, checks.At(sk.Path, 1, 1, fmt.Sprintf("no %q in the frontmatter", key)))
		case k.Value.Kind != yaml.ScalarNode || k.Value.Tag != "!!str":
			ev = append(ev, checks.At(sk.Path, k.Pos.Line, k.Pos.Col, fmt.Sprintf("%q is not a string", key)))
		case strings.TrimSpace(k.Value.Value) == "":
			ev = append(ev, checks.At(sk.Path, k.Pos.Line, k.Pos.Col, fmt.Sprintf("%q is empty", key)))
		}
	}
	if len(ev) > 0 {
		return checks.Failed("SKILL.md frontmatter: "+ev[0].Message, ev...), nil
	}
	return checks.Passed("SKILL.md frontmatter has a string name and description"), nil
}
