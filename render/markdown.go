package render

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/policy"
)

// maxMarkdownEvidence bounds the locations listed for one finding in a
// pull-request comment.
const maxMarkdownEvidence = 5

// MarkdownText escapes an artifact-derived string for Markdown inline text:
// it is made terminal-safe first (no hidden or reordering characters),
// then every character that could open markup inside a line (emphasis,
// code, links, tables, HTML) is escaped; it is never placed at the start
// of a line, where headings and lists begin.
func MarkdownText(s string) string {
	s = Terminal(s)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '~', '>', '<', '&':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// renderMarkdown writes a compact summary for a pull-request comment: the
// verdict, the axis table, and the failures and warnings with where they
// are and how to fix them.
func renderMarkdown(w io.Writer, r *attest.Report) error {
	bw := bufio.NewWriter(w)
	pf := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	overall := "not scored"
	if r.Score.Overall != nil {
		overall = fmt.Sprintf("%.1f", *r.Score.Overall)
	}
	pf("### attest: %s **%s** — %s, %s\n\n", r.Subject.Kind, MarkdownText(r.Subject.Name), strings.ToUpper(r.Score.Verdict), overall)
	pf("| axis | score | measured |\n|---|---:|---:|\n")
	for _, ax := range checks.Axes {
		a := r.Score.Axes[ax]
		if a.Score == nil || a.Coverage == 0 {
			pf("| %s | — | not measured |\n", ax)
			continue
		}
		pf("| %s | %.1f | %d%% |\n", ax, *a.Score, int(math.Round(a.Coverage*100)))
	}
	if len(r.Score.Blocking) > 0 {
		pf("\n**Blocked by:** %s\n", strings.Join(r.Score.Blocking, ", "))
	}
	if r.Behavior != nil {
		// An indented code block: Markdown reads nothing inside it, and
		// Terminal has already escaped every line break an artifact wrote.
		pf("\n#### Behavioral run\n\n")
		for _, line := range BehaviorLines(r) {
			pf("    %s\n", line)
		}
	}
	section := func(title string, st checks.Status) {
		var rs []policy.Result
		for _, res := range r.Results {
			if res.Status == st {
				rs = append(rs, res)
			}
		}
		if len(rs) == 0 {
			return
		}
		pf("\n#### %s (%d)\n\n", title, len(rs))
		for _, res := range rs {
			pf("- **%s** — %s", res.Check, MarkdownText(res.Summary))
			var where []string
			for _, e := range res.Evidence {
				if e.Type == checks.EvidenceFile {
					where = append(where, "`"+strings.ReplaceAll(Terminal(evidenceString(e)), "`", "'")+"`")
				}
			}
			if len(where) > maxMarkdownEvidence {
				where = append(where[:maxMarkdownEvidence], fmt.Sprintf("and %d more", len(where)-maxMarkdownEvidence))
			}
			if len(where) > 0 {
				pf(" (%s)", strings.Join(where, ", "))
			}
			if res.Waiver != nil {
				pf("  \n  _waived:_ %s", MarkdownText(res.Waiver.Reason))
			} else if res.Remediation != "" {
				pf("  \n  _fix:_ %s", MarkdownText(strings.Join(strings.Fields(res.Remediation), " ")))
			}
			pf("\n")
		}
	}
	section("Failures", checks.Fail)
	section("Warnings", checks.Warn)
	section("Could not run", checks.Error)
	for _, na := range r.Policy.NotApplied {
		pf("\n> %s\n", MarkdownText(NotAppliedLine(na)))
	}
	passed := 0
	for _, res := range r.Results {
		if res.Status == checks.Pass {
			passed++
		}
	}
	pf("\n<sub>%s passed of %d · sha256:%s · %s@%s · attest %s</sub>\n", checks.Plural(passed, "check"), len(r.Results),
		r.Subject.Digest.SHA256, r.Suite.ID, r.Suite.Version, MarkdownText(r.Tool.Version))
	return bw.Flush()
}
