package documentationpresent

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/resolve"
)

// Check is documentation-present.
var Check = &checks.Check{
	ID:          "documentation-present",
	Version:     "1.0.0",
	Title:       "Documentation says what it does",
	Axis:        checks.Care,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MinWords is docsMinWords: prose words below which documentation warns.
const MinWords = 50

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	best, bestPath := -1, ""
	for _, p := range prose.Documents(s) {
		d, ok := prose.Load(s, p)
		if !ok {
			continue
		}
		if w := prose.Words(d.Prose); w > best {
			best, bestPath = w, p
		}
	}
	if best < 0 {
		if pl := s.Manifests.Plugin; s.Kind == resolve.KindPlugin && pl.Ok() && pl.V.Description != nil && prose.Words(pl.V.Description.Value) >= 8 && (len(pl.V.Components) > 0 || len(pl.V.Inline) > 0) {
			return checks.Warning(0.7, "no README: only the manifest's description documents the plugin"), nil
		}
		return checks.Failed(fmt.Sprintf("no documentation: want a README%s", extra[s.Kind])), nil
	}
	if best < MinWords {
		return checks.Warning(min(1, float64(best)/MinWords)*0.8, fmt.Sprintf("%s has %s of prose, under %d", bestPath, checks.Plural(best, "word"), MinWords),
			checks.Metric("prose_words", float64(best), "words")), nil
	}
	return checks.Passed(fmt.Sprintf("%s has %s of prose", bestPath, checks.Plural(best, "word")), checks.Metric("prose_words", float64(best), "words")), nil
}

var extra = map[resolve.Kind]string{resolve.KindSkill: " or SKILL.md", resolve.KindPlugin: " or PLUGIN.md", resolve.KindAgent: ", AGENT.md or an agent file", resolve.KindMCP: " or docs/"}
