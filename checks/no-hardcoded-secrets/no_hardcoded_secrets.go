package nohardcodedsecrets

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/secrets"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-hardcoded-secrets.
var Check = &checks.Check{
	ID:          "no-hardcoded-secrets",
	Version:     "1.3.0",
	Title:       "No hard-coded secrets",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(ctx context.Context, in *checks.Input) (checks.Result, error) {
	var fails, warns []checks.Evidence
	unscanned := append([]string(nil), files.OpenArchives(in.Subject).Unread...)
	scanned := 0
	for f := range files.Scan(in.Subject) {
		if err := ctx.Err(); err != nil {
			return checks.Result{}, err
		}
		if !f.Scanned {
			unscanned = append(unscanned, f.Path)
			continue
		}
		if !files.IsText(f) {
			continue
		}
		scanned++
		for _, m := range secrets.Scan(f.Path, f.Content) {
			pos := manifest.PosAt(f.Content, m.Start)
			e := checks.At(f.Path, pos.Line, pos.Col, "secret matching rule "+m.Rule)
			if m.Test {
				warns = append(warns, checks.At(f.Path, pos.Line, pos.Col, "test-mode credential matching rule "+m.Rule))
			} else {
				fails = append(fails, e)
			}
		}
	}
	metric := checks.Metric("files_scanned", float64(scanned), "files")
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d holds a secret (%s)", fails[0].Path, fails[0].Line, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case len(unscanned) > 0:
		ev := []checks.Evidence{metric, checks.Metric("files_applicable", float64(scanned+len(unscanned)), "files")}
		return checks.Skipped(fmt.Sprintf("%s too large to scan", checks.Plural(len(unscanned), "file")), append(ev, checks.At(unscanned[0], 0, 0, "not scanned"))...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), append(warns, metric)...), nil
	}
	return checks.Passed(fmt.Sprintf("%s scanned, no secrets", checks.Plural(scanned, "text file")), metric), nil
}
