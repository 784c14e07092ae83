package checks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/resolve/manifest"
)

// Passed returns a pass result.
func Passed(summary string, ev ...Evidence) Result {
	return Result{Status: Pass, Summary: summary, Evidence: ev}
}

// Failed returns a fail result.
func Failed(summary string, ev ...Evidence) Result {
	return Result{Status: Fail, Summary: summary, Evidence: ev}
}

// NotApplicable returns a neutral result.
func NotApplicable(summary string) Result {
	return Result{Status: Neutral, Summary: summary}
}

// Skipped returns a skip for a limit reached.
func Skipped(summary string, ev ...Evidence) Result {
	return Result{Status: Skip, SkipReason: SkipLimit, Summary: summary, Evidence: ev}
}

// Plural formats a count with a noun.
func Plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	if l := len(noun); l > 1 && noun[l-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[l-2])) {
		return fmt.Sprintf("%d %sies", n, noun[:l-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ErrPos is the position a manifest parse error names, if any.
func ErrPos(err error) manifest.Pos {
	var se *manifest.SyntaxError
	if errors.As(err, &se) {
		return se.Pos
	}
	return manifest.Pos{}
}
