package skillfrontmatterdepth

import (
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-frontmatter-depth.
var Check = &checks.Check{
	ID:          "skill-frontmatter-depth",
	Version:     "1.1.0",
	Title:       "SKILL.md frontmatter follows the skill format",
	Axis:        checks.Integrity,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Limits of the skill format.
const (
	MaxName        = 64
	MaxDescription = 1024
)

var (
	xmlRe   = lex.Lazy(`</?[A-Za-z][\w:-]*(\s[^<>]*)?/?>`)
	allowed = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sk := in.Subject.Manifests.Skill
	if !sk.Ok() {
		return checks.NotApplicable("SKILL.md frontmatter does not load (see skill-frontmatter)"), nil
	}
	fm := sk.V
	var warns []checks.Evidence
	var notes []string
	at := func(line, col int, msg string) { warns = append(warns, checks.At(sk.Path, line, col, msg)) }
	if name, pos, ok := fm.String("name"); ok {
		if utf8.RuneCountInString(name) > MaxName {
			at(pos.Line, pos.Col, fmt.Sprintf("name is %d characters, over %d", utf8.RuneCountInString(name), MaxName))
		}
		if !lex.Kebab(name) {
			at(pos.Line, pos.Col, fmt.Sprintf("name %q is not lowercase kebab-case", name))
		}
		if xmlRe.Re().MatchString(name) {
			at(pos.Line, pos.Col, "name holds XML-like tags")
		}
	}
	if desc, pos, ok := fm.String("description"); ok {
		if n := utf8.RuneCountInString(desc); n > MaxDescription {
			at(pos.Line, pos.Col, fmt.Sprintf("description is %d characters, over %d", n, MaxDescription))
		}
		if xmlRe.Re().MatchString(desc) {
			at(pos.Line, pos.Col, "description holds XML-like tags")
		}
	}
	for _, k := range fm.Keys {
		switch {
		case slices.Contains(allowed, k.Name):
		case k.Name == "version":
			notes = append(notes, "legacy top-level 'version'; the format keeps it under metadata")
		default:
			at(k.Pos.Line, k.Pos.Col, fmt.Sprintf("top-level key %q is not part of the skill format; move it under metadata", k.Name))
		}
	}
	if len(warns) > 0 {
		score := max(0, 1-0.25*float64(len(warns)))
		return checks.Warning(score, warns[0].Message, warns...), nil
	}
	r := checks.Passed("frontmatter follows the skill format")
	if len(notes) > 0 {
		r.Detail = notes[0]
	}
	return r, nil
}
