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

// NotEnoughMeasured is printed instead of an overall score below the
// coverage floor.
const NotEnoughMeasured = "not enough was measured to publish a score"

const barWidth = 20

type glyphs struct{ full, empty, arrow, dot, dash string }

var (
	unicodeGlyphs = glyphs{full: "█", empty: "░", arrow: "→", dot: "·", dash: "—"}
	asciiGlyphs   = glyphs{full: "#", empty: "-", arrow: "->", dot: "-", dash: "-"}
)

type painter struct {
	on bool
}

func (p painter) paint(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func statusColor(s string) string {
	switch s {
	case string(checks.Fail):
		return "1;31"
	case string(checks.Warn), "insufficient":
		return "1;33"
	case string(checks.Pass):
		return "1;32"
	case string(checks.Error):
		return "1;35"
	}
	return "2"
}

// statusOrder puts failures before warnings before passes.
var statusOrder = []checks.Status{checks.Fail, checks.Warn, checks.Error, checks.Skip, checks.Pass, checks.Neutral}

func renderText(w io.Writer, r *attest.Report, opts Options) error {
	g := unicodeGlyphs
	if opts.ASCII {
		g = asciiGlyphs
	}
	p := painter{on: opts.Color}
	bw := bufio.NewWriter(w)
	pf := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	title := r.Subject.Name
	if r.Subject.Version != nil {
		title += " " + *r.Subject.Version
	}
	pf("%s %s %s %s\n", p.paint("1", "attest"), g.dot, r.Subject.Kind, p.paint("1", Terminal(title)))
	pf("  digest  sha256:%s\n", r.Subject.Digest.SHA256)
	src := r.Subject.Source
	pf("  source  %s %s\n", src.Type, Terminal(src.URI))
	if r.Subject.Manifest == "" && r.Subject.KindReason != "" {
		// no manifest said what this is: say how it was judged
		pf("  kind    %s\n", Terminal(r.Subject.KindReason))
	}
	commit := r.Subject.Digest.GitCommit
	if commit == "" && src.Commit != nil {
		commit = *src.Commit
	}
	if commit != "" {
		pf("  commit  %s\n", commit)
	}
	pf("  files   %d (%s)", r.Inventory.Files, bytesHuman(r.Inventory.Bytes))
	if n := len(r.Inventory.Skipped); n > 0 {
		pf(", %d left out", n)
	}
	if n := len(r.Inventory.Unscanned); n > 0 {
		pf(", %d not content-scanned", n)
	}
	pf("\n\n")

	verdict := p.paint(statusColor(r.Score.Verdict), VerdictLine(r))
	if opts.Quiet {
		fmt.Fprintln(w, verdict)
		return nil
	}
	if r.Score.Overall != nil {
		pf("%-10s %s  %5.1f  %s\n", p.paint("1", "OVERALL"), bar(*r.Score.Overall, g), *r.Score.Overall, verdict)
	} else {
		pf("%-10s %s  %5s  %s\n", p.paint("1", "OVERALL"), strings.Repeat(g.empty, barWidth), g.dash, verdict)
	}
	pf("\n")
	for _, ax := range checks.Axes {
		a := r.Score.Axes[ax]
		if a.Score == nil || a.Coverage == 0 {
			pf("  %-10s %s  %5s  not measured\n", ax, strings.Repeat(g.empty, barWidth), g.dash)
			continue
		}
		pf("  %-10s %s  %5.1f  %d%% measured\n", ax, bar(*a.Score, g), *a.Score, int(math.Round(a.Coverage*100)))
	}
	pf("\n")
	if r.Behavior != nil {
		for _, line := range BehaviorLines(r) {
			pf("%s\n", line)
		}
		pf("\n")
	}

	// Failures, warnings and errors with their evidence first; skips one
	// line each (they lower coverage); passes and neutral results in one
	// line unless every check is asked for.
	all := opts.All || opts.Verbose
	counts := map[checks.Status]int{}
	var quiet []string
	for _, st := range statusOrder {
		for _, res := range r.Results {
			if res.Status != st {
				continue
			}
			counts[st]++
			if (st == checks.Pass || st == checks.Neutral) && !all {
				quiet = append(quiet, res.Check)
				continue
			}
			writeResult(bw, res, g, p, opts)
		}
	}
	if len(quiet) > 0 {
		pf("%s %s (--all lists them)\n", p.paint(statusColor(string(checks.Pass)), fmt.Sprintf("%-7s", "PASS")), passLine(counts))
	}
	var parts []string
	for _, st := range statusOrder {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	pf("\n%s: %s\n", checks.Plural(len(r.Results), "check"), strings.Join(parts, ", "))
	for _, na := range r.Policy.NotApplied {
		pf("%s\n", NotAppliedLine(na))
	}
	pf("%s\n", verdict)
	return bw.Flush()
}

// passLine summarises the checks that passed or did not apply.
func passLine(counts map[checks.Status]int) string {
	var parts []string
	if n := counts[checks.Pass]; n > 0 {
		parts = append(parts, fmt.Sprintf("%s passed", checks.Plural(n, "check")))
	}
	if n := counts[checks.Neutral]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d did not apply", n))
	}
	return strings.Join(parts, ", ")
}

// VerdictLine is the verdict with its reason, as the text report opens and
// ends with it: "FAIL: blocked by no-hardcoded-secrets",
// "FAIL: 98.7 < --min-score 99", "INSUFFICIENT: …", "PASS".
func VerdictLine(r *attest.Report) string {
	v := strings.ToUpper(r.Score.Verdict)
	if why := policy.VerdictReason(r.Score, r.Results, r.Policy.MinScore); why != "" {
		v += ": " + why
	}
	return v
}

// NotAppliedLine says why a waiver did not waive its check's finding.
func NotAppliedLine(na policy.NotApplied) string {
	switch {
	case na.Why == policy.NotAppliedExpired && na.Expires != nil:
		return fmt.Sprintf("waiver for %s not applied: it expired (%s)", na.Check, Terminal(*na.Expires))
	case len(na.UncoveredFiles) > 0:
		files := na.UncoveredFiles
		more := ""
		if len(files) > 10 {
			files, more = files[:10], fmt.Sprintf(" and %d more", len(na.UncoveredFiles)-10)
		}
		return fmt.Sprintf("waiver for %s not applied: its paths do not cover %s%s", na.Check, Terminal(strings.Join(files, ", ")), more)
	case na.Why == policy.NotAppliedPaths:
		return fmt.Sprintf("waiver for %s not applied: its paths cover no file of the finding (it names none)", na.Check)
	}
	return fmt.Sprintf("waiver for %s not applied: %s", na.Check, na.Why)
}

func writeResult(w *bufio.Writer, res policy.Result, g glyphs, p painter, opts Options) {
	label := strings.ToUpper(string(res.Status))
	tags := []string{string(res.Axis)}
	if res.Blocking {
		tags = append(tags, "blocking")
	}
	if res.Waiver != nil {
		tags = append(tags, "waived")
	}
	fmt.Fprintf(w, "%s %s %s  %s\n", p.paint(statusColor(string(res.Status)), fmt.Sprintf("%-7s", label)), res.Check,
		p.paint("2", "("+strings.Join(tags, ", ")+")"), Terminal(res.Summary))
	detailed := res.Status == checks.Fail || res.Status == checks.Warn || res.Status == checks.Error || opts.Verbose
	if !detailed {
		return
	}
	for _, e := range res.Evidence {
		fmt.Fprintf(w, "        %s %s\n", g.arrow, Terminal(evidenceString(e)))
	}
	if res.Waiver != nil {
		fmt.Fprintf(w, "        waived: %s\n", Terminal(res.Waiver.Reason))
	}
	if (res.Status == checks.Fail || res.Status == checks.Warn) && res.Remediation != "" {
		for i, l := range wrap(strings.Join(strings.Fields(res.Remediation), " "), 64) {
			lead := "        fix: "
			if i > 0 {
				lead = "             "
			}
			fmt.Fprintf(w, "%s%s\n", lead, Terminal(l))
		}
	}
}

func evidenceString(e checks.Evidence) string {
	var s string
	switch e.Type {
	case checks.EvidenceFile:
		s = e.Path
		if s == "." {
			s = "(artifact root)"
		}
		if e.Line > 0 {
			s += fmt.Sprintf(":%d", e.Line)
			if e.Column > 0 {
				s += fmt.Sprintf(":%d", e.Column)
			}
		}
	case checks.EvidenceURL:
		s = e.URL
	case checks.EvidenceTranscript:
		s = "transcript " + e.SHA256
	case checks.EvidenceMetric:
		if e.Value != nil {
			s = fmt.Sprintf("%s = %g %s", e.Name, *e.Value, e.Unit)
		}
	}
	if e.Message != "" {
		s += "  " + e.Message
	}
	return strings.TrimSpace(s)
}

func bar(score float64, g glyphs) string {
	n := int(math.Round(score / 100 * barWidth))
	n = max(0, min(barWidth, n))
	return strings.Repeat(g.full, n) + strings.Repeat(g.empty, barWidth-n)
}

func bytesHuman(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(s string, width int) []string {
	var lines []string
	for len(s) > width {
		i := strings.LastIndexByte(s[:width+1], ' ')
		if i <= 0 {
			i = strings.IndexByte(s, ' ')
			if i < 0 {
				break
			}
		}
		lines = append(lines, s[:i])
		s = s[i+1:]
	}
	return append(lines, s)
}

// BehaviorLines summarise a behavioral run for a reader: where it ran, with
// which models and tokens, each case's statistics, each probe, the
// ledgers' size. Artifact-derived strings are made safe for a terminal.
func BehaviorLines(r *attest.Report) []string {
	b := r.Behavior
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if b.Skipped != "" {
		add("BEHAVIOR   not run: %s", Terminal(b.Skipped))
		return out
	}
	where := "BEHAVIOR   " + b.Harness + " harness"
	if sb := r.Environment.Sandbox; sb != nil {
		where += fmt.Sprintf(", %s (%s), ledger %s", sb.Kind, Terminal(sb.Version), sb.Ledger)
	}
	add("%s", where)
	for _, role := range []string{"driver", "judge", "synthesis"} {
		m, ok := r.Environment.Models[role]
		if !ok || m.Calls == 0 {
			continue
		}
		add("  %-10s %s %s, temperature %g, %d call(s), %d tokens in, %d out", role, m.Provider, Terminal(m.Model), m.Temperature, m.Calls, m.InputTokens, m.OutputTokens)
	}
	for _, c := range b.Cases {
		line := fmt.Sprintf("  case %s (%s)", Terminal(c.ID), Terminal(c.Source))
		if st := c.Stats; st != nil && st.N > 0 {
			line += fmt.Sprintf(": %d/%d passed, mean %.2f", st.Passes, st.N, st.Mean)
			if st.CI != nil {
				line += fmt.Sprintf(" [%.2f, %.2f]", st.CI[0], st.CI[1])
			}
			if st.N > 1 {
				line += fmt.Sprintf(", pass^%d %.2f", st.K, st.PassHatK)
			}
		}
		for _, run := range c.Runs {
			switch {
			case run.Refused != "":
				line += "; the judge refused: " + Terminal(run.Refused)
			case run.Error != "":
				line += "; " + Terminal(run.Error)
			}
			if run.LimitHit != "" {
				line += "; " + run.LimitHit + " limit reached"
			}
		}
		add("%s", line)
	}
	for _, p := range b.Probes {
		line := fmt.Sprintf("  probe %s on %s: %s", p.Class, Terminal(p.Tool), p.Outcome)
		if p.Detail != "" && p.Outcome != "resisted" {
			line += " (" + Terminal(p.Detail) + ")"
		}
		add("%s", line)
	}
	for _, h := range b.Hooks {
		add("  hook %s: exit %d", Terminal(h.Event), h.ExitCode)
	}
	allowed := 0
	for _, n := range b.Ledger.Network {
		if n.Allowed {
			allowed++
		}
	}
	add("  ledgers   %d network attempt(s), %d allowed; %d file event(s); %d process event(s)", len(b.Ledger.Network), allowed, len(b.Ledger.Files), len(b.Ledger.Processes))
	if b.Ledger.Note != "" {
		add("            %s", Terminal(b.Ledger.Note))
	}
	for _, e := range b.Errors {
		add("  error     %s", Terminal(e))
	}
	return out
}
