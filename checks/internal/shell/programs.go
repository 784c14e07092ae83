package shell

import (
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/resolve"
)

// Program is one shell program found in an artifact (analysis.Program).
type Program = analysis.Program

// IsShellFile reports whether a file is a shell script, by extension or
// shebang.
func IsShellFile(p string, content []byte) bool { return analysis.IsShellFile(p, content) }

// Programs lists every shell program the artifact ships.
func Programs(s *resolve.Subject) []Program { return analysis.Programs(s) }

var buildTime = analysis.BuildTime

// Rate runs the shell rules over programs and returns fail and warn
// evidence. Shared with the checks that rate hooks and install scripts.
func Rate(programs []Program) (fails, warns []checks.Evidence, errs int) {
	for _, p := range programs {
		fs, _, err := AnalyzeLenient(p.Source)
		if err != nil {
			errs++
			continue
		}
		for _, f := range fs {
			if f.Category == RuntimeInstall && buildTime[p.Where] {
				continue // installing dependencies is what image builds and CI steps are for
			}
			e := checks.At(p.Path, p.Line+f.Line, 0, fmt.Sprintf("%s (%s): %s", f.Category, p.Where, f.Message))
			if f.Severity == Fail {
				fails = append(fails, e)
			} else {
				warns = append(warns, e)
			}
		}
	}
	return fails, warns, errs
}
