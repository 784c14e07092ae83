package skilltokenfootprint

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-token-footprint.
var Check = &checks.Check{
	ID:          "skill-token-footprint",
	Version:     "1.0.0",
	Title:       "The skill loads few tokens up front",
	Axis:        checks.Care,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Limits in estimated tokens.
const (
	MaxDescriptionTokens = 200
	MaxBodyTokens        = 5000
)

// Tokens estimates a token count as ⌈chars/4⌉.
func Tokens(s string) int { return (len([]rune(s)) + 3) / 4 }

var refRe = lex.Lazy(`\]\(([^)\s#]+)|` + "`" + `([\w./-]+\.\w+)` + "`")

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sk := in.Subject.Manifests.Skill
	if !sk.Ok() {
		return checks.NotApplicable("no readable SKILL.md frontmatter (skill-frontmatter reports it)"), nil
	}
	desc, _, _ := sk.V.String("description")
	body := string(sk.V.Body)
	dt, bt := Tokens(desc), Tokens(body)
	// Files the body points to are loaded only when needed.
	refs := map[string]bool{}
	for _, m := range refRe.Re().FindAllStringSubmatch(body, -1) {
		ref := m[1] + m[2]
		if strings.Contains(ref, "://") {
			continue
		}
		if _, ok := in.Subject.Inventory.File(path.Clean(ref)); ok {
			refs[path.Clean(ref)] = true
		}
	}
	ev := []checks.Evidence{checks.Metric("description_tokens", float64(dt), "tokens"), checks.Metric("body_tokens", float64(bt), "tokens"),
		checks.Metric("referenced_files", float64(len(refs)), "files")}
	note := ""
	if len(refs) > 0 {
		note = fmt.Sprintf("; %s loaded on demand", checks.Plural(len(refs), "referenced file"))
	}
	var over []string
	if dt > MaxDescriptionTokens {
		over = append(over, fmt.Sprintf("the description is ~%d tokens (over %d, and it is loaded in every conversation)", dt, MaxDescriptionTokens))
	}
	if bt > MaxBodyTokens {
		over = append(over, fmt.Sprintf("the body is ~%d tokens (over %d)", bt, MaxBodyTokens))
	}
	if len(over) > 0 {
		return checks.Warning(0.5, strings.Join(over, "; ")+note, ev...), nil
	}
	return checks.Passed(fmt.Sprintf("description ~%d tokens, body ~%d tokens%s", dt, bt, note), ev...), nil
}
