package skilldistinctiveness

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/resolve"
)

// Check is skill-distinctiveness.
var Check = &checks.Check{
	ID:          "skill-distinctiveness",
	Version:     "1.0.0",
	Title:       "The skill says each thing once",
	Axis:        checks.Care,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindSkill},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MinWords is the length from which a repeated paragraph counts.
const MinWords = 12

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	d, ok := prose.Load(in.Subject, "SKILL.md")
	if !ok {
		return checks.NotApplicable("no SKILL.md (skill-frontmatter reports it)"), nil
	}
	seen := map[string]int{}
	total, repeated := 0, 0
	var first string
	for _, b := range d.Blocks {
		w := prose.Words(b)
		total += w
		if w < MinWords {
			continue
		}
		n := prose.Normalize(b)
		seen[n]++
		if seen[n] > 1 {
			repeated += w
			if first == "" {
				first = b
			}
		}
	}
	if repeated == 0 {
		return checks.Passed("no paragraph of 12 words or more is repeated"), nil
	}
	pct := max(1, (100*repeated+total-1)/max(total, 1)) // rounded up: any repetition shows
	if len(first) > 80 {
		first = first[:80] + "…"
	}
	return checks.Warning(0.5, fmt.Sprintf("~%d%% redundant: %q is said more than once", pct, strings.TrimSpace(first)),
		checks.Metric("redundant_percent", float64(pct), "%")), nil
}
