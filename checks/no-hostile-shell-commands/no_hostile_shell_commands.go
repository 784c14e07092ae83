package nohostileshellcommands

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-hostile-shell-commands.
var Check = &checks.Check{
	ID:          "no-hostile-shell-commands",
	Version:     "1.1.0",
	Title:       "No hostile shell commands",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	programs := shell.Programs(in.Subject)
	if len(programs) == 0 {
		return checks.NotApplicable("no shell programs"), nil
	}
	fails, warns, errs := shell.Rate(programs)
	metric := checks.Metric("shell_programs", float64(len(programs)), "programs")
	fails, warns = reach.Annotate(in.Subject, fails), reach.Annotate(in.Subject, warns)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case errs > 0:
		return checks.Skipped(fmt.Sprintf("%s could not be read", checks.Plural(errs, "shell program")), metric), nil
	case len(warns) > 0:
		score := 0.75 // sudo and run-time installs: flag for review
		for _, w := range warns {
			if strings.Contains(w.Message, string(shell.VerifiedExec)) {
				score = 0.5
			}
		}
		return checks.Warning(score, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), append(warns, metric)...), nil
	}
	return checks.Passed(fmt.Sprintf("%s rated, nothing hostile", checks.Plural(len(programs), "shell program")), metric), nil
}
