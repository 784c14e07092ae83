package policy

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
)

// VerdictReason says in a few words why a score has its verdict, by the
// rules Compute applied: "blocked by x, y", "98.7 < --min-score 99",
// "not enough was measured", "blocking check x ended error". A pass has
// no reason ("").
func VerdictReason(s Score, results []Result, minScore *float64) string {
	switch s.Verdict {
	case VerdictFail:
		if len(s.Blocking) > 0 {
			return "blocked by " + strings.Join(s.Blocking, ", ")
		}
		if minScore != nil {
			if s.Overall == nil {
				return fmt.Sprintf("no overall score (not enough was measured) < --min-score %g", *minScore)
			}
			return fmt.Sprintf("%.1f < --min-score %g", *s.Overall, *minScore)
		}
	case VerdictInsufficient:
		var errs, skips []string
		for _, r := range results {
			switch {
			case !r.Blocking:
			case r.Status == checks.Error:
				errs = append(errs, r.Check)
			case r.Status == checks.Skip && r.SkipReason != checks.SkipCapability && r.SkipReason != checks.SkipPolicy:
				skips = append(skips, r.Check)
			}
		}
		var why []string
		if len(errs) > 0 {
			why = append(why, fmt.Sprintf("blocking %s could not run (error): %s", plural(len(errs), "check"), strings.Join(errs, ", ")))
		}
		if len(skips) > 0 {
			why = append(why, fmt.Sprintf("blocking %s stopped at a limit: %s", plural(len(skips), "check"), strings.Join(skips, ", ")))
		}
		if s.Overall == nil {
			why = append(why, "not enough was measured to publish a score")
		}
		return strings.Join(why, "; ")
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
