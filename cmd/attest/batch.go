package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/cmd/internal/gctune"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve"
)

// maxListBytes bounds a --from list.
const maxListBytes = 16 << 20

// batchLine is one target in the JSON-lines summary.
type batchLine struct {
	Target     string   `json:"target"`
	Kind       string   `json:"kind,omitempty"`
	Name       string   `json:"name,omitempty"`
	Digest     string   `json:"digest,omitempty"`
	Overall    *float64 `json:"overall"`
	Verdict    string   `json:"verdict,omitempty"`
	Blocking   []string `json:"blocking,omitempty"`
	Report     string   `json:"report,omitempty"`
	Cached     bool     `json:"cached"`
	DurationMs int64    `json:"durationMs"`
	Error      string   `json:"error,omitempty"`
}

// runBatch evaluates many targets: the arguments, a --from list, or the
// members of a collection; one report each (in --out-dir), a summary on
// standard output (a table, or JSON lines with --json), progress on
// standard error when it is a terminal.
func runBatch(cmd *cobra.Command, a *app, targets []string, o runOptions, minScore *float64, collection string) error {
	switch {
	case o.sign:
		return withCode(exitError, errors.New("--sign signs one report; sign each report of a batch with attest sign"))
	case o.output != "":
		return withCode(exitError, errors.New("--output names one report; a batch writes one per target into --out-dir DIR"))
	case o.surface != "" || o.lock != "":
		return withCode(exitError, errors.New("--surface and --lock apply to one MCP server, not a batch"))
	case o.format != "text" && o.format != "json":
		return withCode(exitError, fmt.Errorf("a batch writes a summary as text or JSON lines, and JSON reports into --out-dir; render one with attest render --format %s", o.format))
	}
	if o.from != "" {
		list, err := readList(a, o.from)
		if err != nil {
			return withCode(exitError, err)
		}
		targets = append(targets, list...)
	}
	if len(targets) == 0 {
		return withCode(exitError, errors.New("no targets to evaluate"))
	}
	if o.shard != "" {
		i, n, err := attest.ParseShard(o.shard)
		if err != nil {
			return withCode(exitError, err)
		}
		targets = attest.Shard(targets, i, n)
		fmt.Fprintf(a.stderr, "shard %s: %d of the targets\n", o.shard, len(targets))
		if len(targets) == 0 {
			return nil
		}
	}
	if collection != "" {
		fmt.Fprintf(a.stderr, "%s is a collection of %s; evaluating each\n", collection, checks.Plural(len(targets), "artifact"))
	}
	var kind resolve.Kind
	if o.kind != "" {
		var err error
		if kind, err = resolve.ParseKind(o.kind); err != nil {
			return withCode(exitError, err)
		}
	}
	cfg, err := loadConfig(a, targets[0], o)
	if err != nil {
		return withCode(exitError, err)
	}
	if minScore != nil {
		cfg.MinScore = minScore
	}
	opts := attest.Options{Kind: kind, Policy: cfg, ToolVersion: Version,
		Notef: func(format string, args ...any) { fmt.Fprintf(a.stderr, "note: "+format+"\n", args...) }}
	if o.net {
		g := checks.DefaultGrants
		g.Net = true
		opts.Grants = &g
	}
	if !o.noCache {
		dir, err := attest.DefaultCacheDir()
		if err != nil {
			fmt.Fprintf(a.stderr, "note: %v; evaluating without a cache\n", err)
		} else {
			opts.Cache = &attest.Cache{Dir: dir}
		}
	}
	if o.outDir != "" {
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return withCode(exitError, err)
		}
	}
	gctune.Batch()
	progress := terminal(a.stderr)
	lines := make([]batchLine, len(targets))
	names := map[string]int{}
	done, failed, insufficient, errored, cached := 0, 0, 0, 0, 0
	enc := json.NewEncoder(a.stdout)
	start := time.Now()
	if !progress {
		defer heartbeat(a.stderr, fmt.Sprintf("evaluating %s", checks.Plural(len(targets), "target")), heartbeatEvery)()
	}
	attest.Batch(cmd.Context(), targets, o.jobs, opts, func(it attest.BatchItem) {
		done++
		l := batchLine{Target: it.Target, Cached: it.Cached, DurationMs: it.Duration.Milliseconds()}
		switch {
		case it.Err != nil:
			errored++
			l.Error = explainEvalError(it.Target, it.Err).Error()
		default:
			r := it.Report
			l.Kind, l.Name, l.Digest, l.Overall, l.Verdict, l.Blocking = string(r.Subject.Kind), r.Subject.Name, r.Subject.Digest.SHA256, r.Score.Overall, r.Score.Verdict, r.Score.Blocking
			switch r.Score.Verdict {
			case policy.VerdictFail:
				failed++
			case policy.VerdictInsufficient:
				insufficient++
			}
			if it.Cached {
				cached++
			}
			if o.outDir != "" {
				p, err := writeBatchReport(o.outDir, r, names)
				if err != nil {
					errored++
					l.Error = "writing the report: " + err.Error()
				}
				l.Report = p
			}
		}
		lines[it.Index] = l
		if o.format == "json" {
			enc.Encode(l)
		}
		if progress {
			fmt.Fprintf(a.stderr, "\r\x1b[K%s %d/%d %s", progressBar(done, len(targets)), done, len(targets), render.Terminal(filepath.Base(it.Target)))
		}
	})
	if progress {
		fmt.Fprint(a.stderr, "\r\x1b[K")
	}
	if o.format != "json" {
		writeBatchTable(a.stdout, lines)
	}
	fmt.Fprintf(a.stderr, "%s in %.1f s: %d failing, %d insufficient, %d not evaluated, %d from the cache\n",
		checks.Plural(len(targets), "artifact"), time.Since(start).Seconds(), failed, insufficient, errored, cached)
	// The highest exit among the targets.
	switch {
	case errored > 0:
		return withCode(exitError, fmt.Errorf("%s could not be evaluated (see the summary)", checks.Plural(errored, "target")))
	case insufficient > 0:
		return errSilentInsufficient
	case failed > 0:
		return errSilentFail
	}
	return nil
}

// readList reads targets, one per line; blank lines and # comments are
// skipped.
func readList(a *app, p string) ([]string, error) {
	var r io.Reader
	if p == "-" {
		r = a.stdin
	} else {
		f, err := resolve.OpenFile(p)
		if errors.Is(err, resolve.ErrNotRegular) {
			return nil, fmt.Errorf("--from: %w; give - to read the list from standard input", err)
		}
		if err != nil {
			return nil, fmt.Errorf("--from: %w", err)
		}
		defer f.Close()
		r = f
	}
	var out []string
	sc := bufio.NewScanner(io.LimitReader(r, maxListBytes))
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--from %s: %w", p, err)
	}
	return out, nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeBatchReport writes a report as DIR/KIND-NAME.json (-2, -3... when
// two artifacts share a name).
func writeBatchReport(dir string, r *attest.Report, names map[string]int) (string, error) {
	base := string(r.Subject.Kind) + "-" + strings.Trim(unsafeName.ReplaceAllString(r.Subject.Name, "_"), "._")
	names[base]++
	if n := names[base]; n > 1 {
		base = fmt.Sprintf("%s-%d", base, n)
	}
	p := filepath.Join(dir, base+".json")
	f, err := resolve.CreateOutput(p)
	if err != nil {
		return "", err
	}
	defer f.Discard()
	if err := render.Render(f, r, render.JSON, render.Options{}); err != nil {
		return "", err
	}
	return p, f.Commit()
}

func progressBar(done, total int) string {
	const width = 24
	n := done * width / total
	return "[" + strings.Repeat("=", n) + strings.Repeat(" ", width-n) + "]"
}

func writeBatchTable(w io.Writer, lines []batchLine) {
	const row = "%-40s %-24s %-7s %7s  %-12s %s\n"
	fmt.Fprintf(w, row, "TARGET", "NAME", "KIND", "SCORE", "VERDICT", "")
	for _, l := range lines {
		target := render.Terminal(trimStart(l.Target, 40))
		if l.Error != "" {
			fmt.Fprintf(w, row, target, "-", "-", "-", "error", render.Terminal(l.Error))
			continue
		}
		score, note := "-", ""
		if l.Overall != nil {
			score = fmt.Sprintf("%.1f", *l.Overall)
		}
		if len(l.Blocking) > 0 {
			note = "blocked by " + strings.Join(l.Blocking, ", ")
		}
		if l.Cached {
			note = strings.TrimSpace(note + " (cached)")
		}
		fmt.Fprintf(w, row, target, render.Terminal(trimTo(l.Name, 24)), l.Kind, score, l.Verdict, note)
	}
}

// trimStart keeps the end of a path, which tells targets apart.
func trimStart(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

func trimTo(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
