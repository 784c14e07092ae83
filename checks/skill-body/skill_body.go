package skillbody

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-body.
var Check = &checks.Check{
	ID:          "skill-body",
	Version:     "1.0.0",
	Title:       "The skill body gives the procedure",
	Axis:        checks.Care,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MinWords is skillBodyMinWords.
const MinWords = 50

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	d, ok := prose.Load(in.Subject, "SKILL.md")
	if !ok {
		return checks.NotApplicable("no SKILL.md (skill-frontmatter reports it)"), nil
	}
	w := prose.Words(d.Prose)
	for _, c := range d.Code {
		w += prose.Words(strings.ReplaceAll(c, "\n", " "))
	}
	m := checks.Metric("body_words", float64(w), "words")
	if w < MinWords {
		return checks.Warning(float64(w)/MinWords, fmt.Sprintf("SKILL.md's body has %s, under %d", checks.Plural(w, "word"), MinWords), m), nil
	}
	return checks.Passed(fmt.Sprintf("SKILL.md's body has %s", checks.Plural(w, "word")), m), nil
}
