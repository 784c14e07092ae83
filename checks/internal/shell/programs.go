package shell

import (
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
