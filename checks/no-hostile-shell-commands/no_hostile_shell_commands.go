package nohostileshellcommands

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-hostile-shell-commands.
var Check = &checks.Check{
	ID:          "no-hostile-shell-commands",
	Version:     "1.0.0",
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

// Rate runs the shell rules over programs and returns fail and warn
// evidence. Shared with the checks that rate hooks and install scripts.
func Rate(programs []shell.Program) (fails, warns []checks.Evidence, errs int) {
	for _, p := range programs {
		fs, _, err := shell.AnalyzeLenient(p.Source)
		if err != nil {
			errs++
			continue
		}
		for _, f := range fs {
			e := checks.At(p.Path, p.Line+f.Line, 0, fmt.Sprintf("%s (%s): %s", f.Category, p.Where, f.Message))
			if f.Severity == shell.Fail {
				fails = append(fails, e)
			} else {
				warns = append(warns, e)
			}
		}
	}
	return fails, warns, errs
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	programs := shell.Programs(in.Subject)
	if len(programs) == 0 {
		return checks.NotApplicable("no shell programs"), nil
	}
	fails, warns, errs := Rate(programs)
	metric := checks.Metric("shell_programs", float64(len(programs)), "programs")
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case errs > 0:
		return checks.Skipped(fmt.Sprintf("%s could not be read", checks.Plural(errs, "shell program")), metric), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), append(warns, metric)...), nil
	}
	return checks.Passed(fmt.Sprintf("%s rated, nothing hostile", checks.Plural(len(programs), "shell program")), metric), nil
}
