package skilltriggers

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-triggers.
var Check = &checks.Check{
	ID:          "skill-triggers",
	Version:     "1.0.0",
	Title:       "The description says when to use the skill",
	Axis:        checks.Care,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Cues are the phrases that tell a model when a skill applies.
var Cues = []string{"use when", "use for", "use to", "use this", "use it when", "use it for", "should use", "should be used",
	"when the user", "when users", "when a user", "when you need", "when claude", "when asked", "whenever", "any time", "anytime",
	"if the user", "if a user", "for tasks involving", "for requests involving", "for tasks", "for requests", "invoke", "trigger",
	"applies to", "helpful for", "useful for", "helps with", "use in"}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sk := in.Subject.Manifests.Skill
	if !sk.Ok() {
		return checks.NotApplicable("no readable SKILL.md frontmatter (skill-frontmatter reports it)"), nil
	}
	v, pos, ok := sk.V.String("description")
	if !ok || strings.TrimSpace(v) == "" {
		return checks.NotApplicable("no description (description-quality reports it)"), nil
	}
	low := strings.Join(strings.Fields(strings.ToLower(v)), " ")
	for _, c := range Cues {
		if i := strings.Index(low, c); i >= 0 && (i == 0 || !isLetter(low[i-1])) {
			return checks.Passed(fmt.Sprintf("the description says when: %q", c)), nil
		}
	}
	return checks.Warning(0.5, fmt.Sprintf("SKILL.md:%d the description says what the skill does but not when to use it", pos.Line),
		checks.At(sk.Path, pos.Line, pos.Col, "no trigger cue such as \"Use when ...\"")), nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' }
