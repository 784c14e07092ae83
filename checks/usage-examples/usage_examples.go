package usageexamples

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/prose"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is usage-examples.
var Check = &checks.Check{
	ID:          "usage-examples",
	Version:     "1.0.0",
	Title:       "A worked example shows how to use it",
	Axis:        checks.Care,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	exampleHeading = lex.Lazy(`(?i)\b(usage|examples?|quick ?start|getting started|how to use|walkthrough|tutorial|workflow)\b`)
	examplesRef    = lex.Lazy(`(?i)\bexamples?/[\w./-]+`)
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	docs := prose.Documents(s)
	for _, p := range docs {
		d, ok := prose.Load(s, p)
		if !ok {
			continue
		}
		if len(d.Code) > 0 {
			return checks.Passed(fmt.Sprintf("%s has a fenced example", p)), nil
		}
		for _, h := range d.Headings {
			if h.Content > 0 && exampleHeading.Re().MatchString(h.Text) {
				return checks.Passed(fmt.Sprintf("%s has a %q section", p, h.Text)), nil
			}
		}
		if m := examplesRef.Re().FindString(d.Prose); m != "" && exists(s, m) {
			return checks.Passed(fmt.Sprintf("%s refers to %s", p, m)), nil
		}
	}
	if len(docs) == 0 {
		return checks.Warning(0.5, "no documentation to hold an example"), nil
	}
	return checks.Warning(0.5, "no fenced example, usage or example section, or referenced examples/ file in "+strings.Join(docs, ", ")), nil
}

func exists(s *resolve.Subject, ref string) bool {
	ref = strings.TrimRight(ref, ".,;:)")
	if _, ok := s.Inventory.File(ref); ok {
		return true
	}
	dir := strings.TrimSuffix(ref, "/") + "/"
	for i := range s.Inventory.Files {
		if strings.HasPrefix(s.Inventory.Files[i].Path, dir) || path.Dir(s.Inventory.Files[i].Path)+"/" == dir {
			return true
		}
	}
	return false
}
