package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve"
)

// maxReportBytes bounds a report read by diff.
const maxReportBytes = 64 << 20

func newDiffCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "diff [--json] BASE.json HEAD.json",
		Short: "Compare two reports of an artifact: what got worse, what stopped being judged",
		Long: `Compare two JSON reports of the same artifact (attest run --json), for a
CI gate on a change that does not force an absolute threshold:

  regressions      checks whose status got worse (pass, warn, fail)
  stopped judging  checks that were pass, warn or fail and are now skip
                   or error (disabled, a capability withdrawn, a check
                   that broke)
  improvements, newly waived results (a waiver is public and never a
  regression), checks added or removed, the score and axis deltas, and
  the MCP surface's changes (declared and observed surfaces are never
  compared).

When the artifact's tree digest did not change, it says so: any change
then comes from the tool (a new suite, another grant), not the artifact.

Exit 1 on a regression, a check that stopped judging, or a surface change
that needs review; 0 otherwise; 2 when a report cannot be read or the two
are about different artifacts.`,
		Example: `  attest run . --json -o head.json
  git stash && attest run . --json -o base.json && git stash pop
  attest diff base.json head.json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := readReport(args[0])
			if err != nil {
				return withCode(exitError, err)
			}
			head, err := readReport(args[1])
			if err != nil {
				return withCode(exitError, err)
			}
			d, err := attest.Compare(base, head)
			if err != nil {
				return withCode(exitError, err)
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(d); err != nil {
					return withCode(exitError, err)
				}
			} else {
				writeDiff(a.stdout, d)
			}
			if d.Fails {
				return errSilentFail
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "the comparison as JSON")
	return cmd
}

// readReport reads a saved JSON report.
func readReport(p string) (*attest.Report, error) {
	data, err := resolve.ReadFileMax(p, maxReportBytes)
	if err != nil {
		return nil, err
	}
	var r attest.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a JSON report (attest run --json): %w", p, err)
	}
	if r.SchemaVersion != attest.SchemaVersion || r.Subject.Name == "" || r.Results == nil {
		return nil, fmt.Errorf("%s: not an attest report (schemaVersion %q)", p, r.SchemaVersion)
	}
	return &r, nil
}

func score(f *float64) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprintf("%.1f", *f)
}

func writeDiff(w io.Writer, d *attest.Diff) {
	t := render.Terminal
	fmt.Fprintf(w, "attest diff: %s %s — %s\n", d.Head.Kind, t(d.Head.Name), d.Headline())
	if d.SameSubject {
		fmt.Fprintf(w, "  subject digest unchanged (sha256:%s): any change below comes from the tool, not the artifact\n", d.Head.Digest)
	} else {
		fmt.Fprintf(w, "  subject sha256:%s -> sha256:%s\n", d.Base.Digest, d.Head.Digest)
	}
	if d.Base.Suite != d.Head.Suite {
		fmt.Fprintf(w, "  suite %s -> %s\n", d.Base.Suite, d.Head.Suite)
	}
	delta := ""
	if d.OverallDelta != nil {
		delta = fmt.Sprintf(" (%+.1f)", *d.OverallDelta)
	}
	fmt.Fprintf(w, "  overall %s -> %s%s, verdict %s -> %s\n", score(d.Base.Overall), score(d.Head.Overall), delta, d.Base.Verdict, d.Head.Verdict)
	for _, ax := range checks.Axes {
		if v, ok := d.AxisDelta[ax]; ok && v != 0 {
			fmt.Fprintf(w, "  %-9s %+.1f\n", ax, v)
		}
	}
	section := func(title string, cs []attest.Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(cs))
		for _, c := range cs {
			line := fmt.Sprintf("  %-30s %s -> %s  %s", c.Check, c.From, c.To, t(c.Summary))
			if c.Waiver != "" {
				line += "  (waived: " + t(c.Waiver) + ")"
			}
			fmt.Fprintln(w, strings.TrimRight(line, " "))
		}
	}
	section("regressions", d.Regressions)
	section("stopped judging", d.StoppedJudging)
	section("newly waived", d.Waived)
	section("improvements", d.Improvements)
	if len(d.Added) > 0 {
		fmt.Fprintf(w, "\nchecks added: %s\n", strings.Join(d.Added, ", "))
	}
	if len(d.Removed) > 0 {
		fmt.Fprintf(w, "checks removed: %s\n", strings.Join(d.Removed, ", "))
	}
	if d.SurfaceNote != "" {
		fmt.Fprintf(w, "\nsurface: %s\n", d.SurfaceNote)
	}
	if len(d.Surface) > 0 {
		fmt.Fprintf(w, "\nsurface changes (%d):\n", len(d.Surface))
		for _, s := range d.Surface {
			review := ""
			if s.Review {
				review = "  needs review"
			}
			fmt.Fprintf(w, "  %s %s: %s%s\n", s.Kind, t(s.Name), s.Change, review)
		}
	}
}
