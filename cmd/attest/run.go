package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve"
)

type runOptions struct {
	format   string
	json     bool
	sarif    bool
	kind     string
	minScore float64
	output   string
	verbose  bool
	all      bool
	quiet    bool
	color    string
	surface  string
	lock     string
	net      bool
	sign     bool
	signing  signFlags
	config   string
	noConfig bool
	from     string
	jobs     int
	outDir   string
	shard    string
	noCache  bool
	key      string
	behave   behaveFlags
}

func newRunCmd(a *app) *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run [flags] TARGET | run --surface FILE [DIR]",
		Short: "Evaluate an artifact and print its report",
		Long: `Evaluate the artifact TARGET (a skill, MCP server, agent or plugin):
take its inventory, detect its kind, run every check of the default suite
that applies, and print the scored report.

TARGET is a local directory (an existing one always wins), or a remote
artifact fetched, pinned and recorded in the report's subject.source:
  gh:OWNER/REPO[//DIR][#REF]     a GitHub repository (OWNER/REPO//DIR without gh:;
                                 a bare OWNER/REPO that is no directory is refused)
  https://github.com/O/R/tree/REF/DIR, or a /blob/ URL
  https://HOST/X.git[//DIR][#REF] any git server over https
REF is a branch, tag or commit; the commit it resolves to is recorded.
Remote targets are fetched into a temporary directory removed when the
run ends; nothing of the artifact is executed.

With --surface FILE, the MCP checks judge a captured surface instead of
the one found in the source: a saved tools/list (prompts/list,
resources/list) result or JSON-RPC response, or an array of them. Without
DIR, the snapshot file alone is the artifact, so a server that cannot be
built can still be judged.

An MCP server's surface is compared with its lock file (--lock, or
attest.lock.json in DIR; write one with 'attest lock'): a tool added, a
description or schema changed, or a name reused with a new meaning exits
1 until the lock is updated. The differences are in surface.drift.

Offline by default: checks that need the network are skipped, which
lowers coverage. --net lets deps-no-known-vulns look up the resolved
dependency versions in OSV; ATTEST_OSV_URL points it at an HTTPS mirror.

The behavioral tier runs the artifact, only when asked: with
--behavioral, or "behavioral": true in attest.json (--no-behavioral
never); 'attest setup' chooses its sandbox and model and never turns it
on by itself. After the static checks (a blocking static safety failure vetoes
it, unless --behavioral), a copy of exactly the evaluated files runs in the
sandbox (bubblewrap by default; --sandbox), a driver model uses it on its
evals/*.json cases (or synthesized ones), a judge model grades each
transcript, MCP servers and skills are probed, and a recording proxy and
strace keep the ledgers that behaves-safely judges. It needs a model provider (--provider when several keys are set);
docs/BEHAVIOR.md says what it does and records.

The report goes to standard output (or --output); progress and notes go to
standard error, so 'attest run DIR --json | jq' stays clean.

Several targets, a list (--from FILE), or a directory that is a
collection of artifacts are evaluated side by side (--jobs, one per CPU
by default): a summary table on standard output (JSON lines with --json),
one JSON report per target in --out-dir, a progress bar on a terminal.
Reports are cached by everything that decides them (the tree digest, the
kind, the suite and catalog, the grants, the policy, the version) in
$XDG_CACHE_HOME/attest, so an unchanged artifact is not evaluated again
(--no-cache evaluates all); --shard i/n keeps the i-th of n disjoint
parts of the list, for a CI matrix. The summary table names each target
as given. 'attest run DIR --out-dir D' on a collection writes one report
per member. Exit 1 when one fails, 2 when one could not be evaluated or
judged (the highest among the targets).

The text report opens and ends with the verdict and its reason
("FAIL: blocked by no-hardcoded-secrets", "FAIL: 98.7 < --min-score 99",
"INSUFFICIENT: blocking check could not run (error): deps-no-known-vulns"),
shows failures and warnings with their evidence, then skips, and sums up
passes in one line (--all lists every check; --quiet prints only the
verdict line). Exit 0 pass, 1 fail, 2 insufficient (could not judge).`,
		Example: `  attest run .
  attest run anthropics/skills//skills/pdf#main
  attest run ./skills/pdf --json > report.json
  attest run . --min-score 80
  attest run --surface tools.json
  attest run ./skills --json --out-dir reports/
  attest run --from targets.txt --shard 2/4`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case o.surface != "":
				return cobra.RangeArgs(0, 1)(cmd, args)
			case o.from != "":
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.json && o.sarif {
				return withCode(exitError, errors.New("--json and --sarif contradict each other; use --format"))
			}
			if o.json {
				o.format = "json"
			}
			if o.sarif {
				o.format = "sarif"
			}
			var minScore *float64
			if cmd.Flags().Changed("min-score") {
				minScore = &o.minScore
			}
			if o.from != "" || len(args) > 1 || o.shard != "" || o.outDir != "" {
				if o.behave.on {
					return withCode(exitError, errors.New("--behavioral runs one target at a time"))
				}
				if len(args) == 1 && o.from == "" && o.shard == "" {
					// One directory into --out-dir: a collection writes a
					// report per member.
					if members := collectionMembers(cmd, args[0]); members != nil {
						return runBatch(cmd, a, members, o, minScore, args[0])
					}
				}
				return runBatch(cmd, a, args, o, minScore, "")
			}
			target := ""
			if len(args) > 0 {
				target = args[0]
			}
			err := runRun(cmd, a, target, o, minScore)
			var coll *resolve.CollectionError
			if errors.As(err, &coll) {
				// A collection: evaluate each member.
				if o.behave.on {
					return withCode(exitError, fmt.Errorf("%s is a collection of %d artifacts; --behavioral runs one target at a time", target, len(coll.Members)))
				}
				return runBatch(cmd, a, memberPaths(target, coll), o, minScore, target)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text, json, sarif (SARIF 2.1.0, for code scanning), markdown or html")
	f.BoolVar(&o.json, "json", false, "shorthand for --format json")
	f.BoolVar(&o.sarif, "sarif", false, "shorthand for --format sarif")
	f.StringVar(&o.kind, "kind", "", "artifact kind, overriding detection: skill, mcp, agent or plugin")
	f.Float64Var(&o.minScore, "min-score", 0, "exit 1 unless the overall score is at least this (0-100)")
	f.StringVarP(&o.output, "output", "o", "", "write the report to this file instead of standard output")
	f.StringVar(&o.output, "out", "", "the same as --output")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "list every check with its evidence, passing ones too")
	f.BoolVar(&o.all, "all", false, "list every check (by default passes and checks that do not apply are summarised in one line)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only the verdict line (text format)")
	f.StringVar(&o.color, "color", "auto", "colour the text report: auto (on a terminal, unless NO_COLOR is set), always or never")
	f.StringVar(&o.surface, "surface", "", "judge this captured MCP surface (tools/list JSON) instead of the one in the source")
	f.BoolVar(&o.sign, "sign", false, "sign the report (needs --key or --keyless, --output and --format json): writes OUTPUT with .sigstore.json beside it")
	f.StringVar(&o.key, "key", "", "with --sign: the PKCS#8 private key (attest keygen)")
	f.BoolVar(&o.signing.keyless, "keyless", false, "with --sign: sign keyless, with a short-lived certificate for your OIDC identity")
	f.StringVar(&o.signing.log, "log", "", "with --sign: record the signature in this Rekor v2 log")
	f.StringVar(&o.signing.config, "signing-config", "", "with --sign: Sigstore signing_config.json (certificate authority, timestamp authorities, logs)")
	f.BoolVar(&o.net, "net", false, "grant network access to the checks that need it (deps-no-known-vulns asks OSV; see ATTEST_OSV_URL)")
	f.StringVar(&o.config, "config", "", "apply this configuration file (attest.json: waivers, disabled checks, settings, minScore)")
	f.BoolVar(&o.noConfig, "no-config", false, "apply no configuration file, even one found from the working directory up")
	f.StringVar(&o.from, "from", "", "evaluate the targets listed in this file, one per line (# comments; - for standard input)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "with several targets: how many to evaluate at once (each on one core)")
	f.StringVar(&o.outDir, "out-dir", "", "with several targets: write each report to this directory as KIND-NAME.json")
	f.StringVar(&o.shard, "shard", "", "with several targets: evaluate only shard i of n (i/n), for a CI matrix")
	f.BoolVar(&o.noCache, "no-cache", false, "with several targets: evaluate every one, even those whose report is cached")
	f.StringVar(&o.lock, "lock", "", "compare the MCP surface with this lock file (default: DIR/"+mcp.LockFile+" when it exists)")
	o.behave.add(f)
	return cmd
}

func runRun(cmd *cobra.Command, a *app, target string, o runOptions, minScore *float64) error {
	format, err := render.ParseFormat(o.format)
	if err != nil {
		return withCode(exitError, err)
	}
	var kind resolve.Kind
	if o.kind != "" {
		if kind, err = resolve.ParseKind(o.kind); err != nil {
			return withCode(exitError, err)
		}
	}
	if o.sign && ((o.key == "") == !o.signing.keyless || o.output == "" || format != render.JSON) {
		return withCode(exitError, errors.New("--sign needs --key KEY.pem or --keyless (one of them), --output FILE and --json: the signed statement carries the JSON report"))
	}
	if minScore != nil && (*minScore < 0 || *minScore > 100) {
		return withCode(exitError, fmt.Errorf("--min-score %v is outside 0..100", *minScore))
	}
	cfg, err := loadConfig(a, target, o)
	if err != nil {
		return withCode(exitError, err)
	}
	if minScore != nil {
		cfg.MinScore = minScore // the flag wins over the file
	} else {
		minScore = cfg.MinScore
	}
	opts := attest.Options{
		Kind:        kind,
		Policy:      cfg,
		ToolVersion: Version,
		Notef:       func(format string, args ...any) { fmt.Fprintf(a.stderr, "note: "+format+"\n", args...) },
	}
	if o.net {
		g := checks.DefaultGrants
		g.Net = true
		opts.Grants = &g
	}
	behavioral, note, err := o.behave.wanted(cfg.Behavioral)
	if err != nil {
		return withCode(exitError, err)
	}
	if behavioral {
		if note != "" {
			fmt.Fprintln(a.stderr, "note: "+note)
		}
		o.behave.allowHosts = append(o.behave.allowHosts, cfg.AllowHosts...)
		opts.Behave = o.behave.hook(a)
		opts.ForceBehavioral = o.behave.on
	}
	if o.surface != "" {
		snap, err := readSurface(o.surface)
		if err != nil {
			return withCode(exitError, err)
		}
		opts.Surface = snap
		if target == "" {
			tmp, dir, src, err := stageSnapshot(o.surface)
			if err != nil {
				return withCode(exitError, err)
			}
			defer os.RemoveAll(tmp)
			target, opts.Source, opts.Kind = dir, src, resolve.KindMCP
		}
	}
	lockPath := o.lock
	if lockPath == "" && target != "" && o.surface == "" {
		if p := filepath.Join(target, mcp.LockFile); fileExists(p) {
			lockPath = p
		}
	}
	switch {
	case o.lock != "":
		if opts.Lock, err = readLock(o.lock); err != nil {
			return withCode(exitError, err)
		}
	case lockPath != "":
		// The artifact's own lock file: read inside it, never through a
		// link.
		data, err := resolve.ReadBeneath(target, mcp.LockFile, mcp.MaxLockBytes)
		if err != nil {
			return withCode(exitError, fmt.Errorf("%s: %w", lockPath, err))
		}
		if opts.Lock, err = mcp.ParseLock(data); err != nil {
			return withCode(exitError, fmt.Errorf("%s: %w", lockPath, err))
		}
	}
	progress := terminal(a.stderr)
	if progress {
		fmt.Fprintf(a.stderr, "reading %s", target)
		opts.Progress = func(done, total int, id string) {
			fmt.Fprintf(a.stderr, "\r\x1b[Kevaluating %d/%d %s", done, total, id)
		}
	}
	var stopBeat func()
	if !progress {
		stopBeat = heartbeat(a.stderr, "evaluating "+target, heartbeatEvery)
	}
	report, err := attest.Evaluate(cmd.Context(), target, opts)
	if stopBeat != nil {
		stopBeat()
	}
	if progress {
		fmt.Fprint(a.stderr, "\r\x1b[K")
	}
	var coll *resolve.CollectionError
	if errors.As(err, &coll) && o.output == "" && !o.sign && o.surface == "" {
		return err // runRun's caller evaluates the members
	}
	if err != nil {
		return withCode(exitError, explainEvalError(target, err))
	}
	out := a.stdout
	var file *resolve.Output
	if o.output != "" {
		// Write beside the destination and rename, so an existing report is
		// never left half-written, and an interrupted run leaves nothing.
		file, err = resolve.CreateOutput(o.output)
		if err != nil {
			return withCode(exitError, fmt.Errorf("writing the report: %w", err))
		}
		defer file.Discard()
		out = file
	}
	color, err := a.colorOn(o.color, out)
	if err != nil {
		return err
	}
	ropts := render.Options{ASCII: a.ascii(), Verbose: o.verbose, All: o.all, Quiet: o.quiet, Color: format == render.Text && color}
	if err := render.Render(out, report, format, ropts); err != nil {
		return withCode(exitError, fmt.Errorf("writing the report: %w", err))
	}
	if file != nil {
		if err := file.Commit(); err != nil {
			return withCode(exitError, fmt.Errorf("writing the report: %w", err))
		}
		fmt.Fprintf(a.stderr, "report written to %s (verdict %s)\n", o.output, report.Score.Verdict)
		if o.sign {
			o.signing.key = o.key
			if err := signReport(cmd, a, o.signing, o.output); err != nil {
				return err
			}
		}
	}
	if n := len(report.Inventory.Skipped); n > 0 && format != render.Text {
		fmt.Fprintf(a.stderr, "note: %d path(s) left out of the subject; see inventory.skipped\n", n)
	}
	if s := report.Surface; s != nil && lockPath != "" {
		switch {
		case s.DriftNote != "":
			fmt.Fprintf(a.stderr, "note: %s: %s\n", lockPath, s.DriftNote)
		case report.DriftNeedsReview():
			fmt.Fprintf(a.stderr, "the MCP surface drifted from %s: %s need review (surface.drift); after review, run 'attest lock' to accept them\n", lockPath, driftCount(s.Drift))
		}
	}
	if report.DriftNeedsReview() && report.Score.Verdict == policy.VerdictPass {
		return errSilentFail
	}
	return verdictError(report.Score.Verdict)
}

// loadConfig finds the run's configuration: --config, or for a local
// target attest.json from the working directory up; never the fetched
// tree's own (attest.Evaluate notes it when there is one).
func loadConfig(a *app, target string, o runOptions) (policy.Config, error) {
	if o.noConfig && o.config != "" {
		return policy.Config{}, errors.New("--config and --no-config contradict each other")
	}
	p := o.config
	if p == "" && !o.noConfig && isLocalTarget(target, o) {
		found, err := policy.DiscoverConfig(".")
		if err != nil {
			return policy.Config{}, err
		}
		p = found
	}
	if p == "" {
		return policy.Config{}, nil
	}
	read := policy.ReadConfig
	if o.config == "" {
		read = policy.ReadDiscovered
	}
	f, err := read(p)
	if err != nil {
		return policy.Config{}, err
	}
	cat, err := suite.Default()
	if err != nil {
		return policy.Config{}, err
	}
	var ids []string
	for _, c := range cat.Checks() {
		ids = append(ids, c.ID)
	}
	if err := f.CheckIDs(ids); err != nil {
		return policy.Config{}, fmt.Errorf("%s: %w", p, err)
	}
	if f.Suite != "" {
		id, version, _ := strings.Cut(f.Suite, "@")
		if id != suite.ID {
			return policy.Config{}, fmt.Errorf("%s: written for suite %q; this attest runs %s", p, f.Suite, suite.ID)
		}
		if version != "" && version != suite.Version {
			fmt.Fprintf(a.stderr, "note: %s was written for %s; this run uses %s@%s (check ids or versions may differ)\n", p, f.Suite, suite.ID, suite.Version)
		}
	}
	if o.config == "" {
		fmt.Fprintf(a.stderr, "note: applying %s (--no-config to run without it)\n", p)
	}
	return f.Config(p), nil
}

// isLocalTarget: an existing directory, or the snapshot of --surface.
func isLocalTarget(target string, o runOptions) bool {
	if target == "" {
		return o.surface != ""
	}
	st, err := os.Stat(target)
	return err == nil && st.IsDir()
}

// readSurface reads and parses a captured surface, saying what to give
// when it is not one.
func readSurface(p string) (*mcp.Surface, error) {
	f, err := resolve.OpenFile(p)
	if err != nil {
		return nil, fmt.Errorf("--surface: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, mcp.MaxSnapshotBytes+1))
	if err != nil {
		return nil, fmt.Errorf("--surface %s: %w", p, err)
	}
	s, err := mcp.ParseSnapshot(data)
	if err != nil {
		return nil, fmt.Errorf("--surface %s: %w (save the result of tools/list, e.g. from the MCP Inspector, or the JSON-RPC response)", p, err)
	}
	return s, nil
}

// stageSnapshot puts the snapshot file alone in a temporary directory
// (dir, inside tmp), so that it is the artifact evaluated, digested and
// recorded as the source.
func stageSnapshot(p string) (tmp, dir string, src *resolve.Provenance, err error) {
	data, err := resolve.ReadFileMax(p, mcp.MaxSnapshotBytes)
	if err != nil {
		return "", "", nil, fmt.Errorf("--surface: %w", err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", nil, fmt.Errorf("--surface: %w", err)
	}
	tmp, err = os.MkdirTemp("", "attest-surface-")
	if err != nil {
		return "", "", nil, fmt.Errorf("staging the snapshot: %w", err)
	}
	// The directory takes the file's stem, which names the subject.
	base := filepath.Base(p)
	dir = filepath.Join(tmp, strings.TrimSuffix(base, filepath.Ext(base)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", "", nil, fmt.Errorf("staging the snapshot: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, base), data, 0o644); err != nil {
		os.RemoveAll(tmp)
		return "", "", nil, fmt.Errorf("staging the snapshot: %w", err)
	}
	return tmp, dir, &resolve.Provenance{Type: resolve.SourceSnapshot, URI: "mcp-snapshot:" + abs, Path: &base}, nil
}

// collectionMembers returns the members of a local directory that is a
// collection of artifacts, or nil for anything else (which the batch then
// evaluates and reports as it is).
func collectionMembers(cmd *cobra.Command, target string) []string {
	if st, err := os.Stat(target); err != nil || !st.IsDir() {
		return nil
	}
	_, err := resolve.Load(cmd.Context(), target, resolve.LoadOptions{})
	var coll *resolve.CollectionError
	if !errors.As(err, &coll) {
		return nil
	}
	return memberPaths(target, coll)
}

func memberPaths(target string, coll *resolve.CollectionError) []string {
	var members []string
	for _, m := range coll.Members {
		members = append(members, filepath.Join(target, m))
	}
	return members
}

// fileExists: a regular file, not a link to one.
func fileExists(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

func readLock(p string) (*mcp.Lock, error) {
	f, err := resolve.OpenFile(p)
	if err != nil {
		return nil, fmt.Errorf("--lock: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, mcp.MaxLockBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	l, err := mcp.ParseLock(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return l, nil
}

func driftCount(ds []mcp.Drift) string {
	n := 0
	for _, d := range ds {
		if d.Review {
			n++
		}
	}
	return checks.Plural(n, "change")
}

// explainEvalError adds the next step to an evaluation error.
func explainEvalError(target string, err error) error {
	var coll *resolve.CollectionError
	switch {
	case errors.As(err, &coll):
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %v; attest evaluates one artifact per run. Evaluate each member:\n", target, err)
		for i, m := range coll.Members {
			if i == 20 {
				fmt.Fprintf(&b, "  ... and %d more\n", len(coll.Members)-20)
				break
			}
			fmt.Fprintf(&b, "  attest run %s\n", filepath.ToSlash(filepath.Join(target, m)))
		}
		return errors.New(strings.TrimSuffix(b.String(), "\n"))
	case errors.Is(err, resolve.ErrUnknownKind):
		return fmt.Errorf("%s: %w; if it is one of these, say which with --kind", target, err)
	case errors.Is(err, resolve.ErrNotFound):
		return fmt.Errorf("%w; check the path", err)
	}
	return err
}

// signReport has the companion sign a written report.
func signReport(cmd *cobra.Command, a *app, f signFlags, report string) error {
	if err := a.sub(cmd.Context(), a.stderr, append(append([]string{"sign"}, f.args()...), report)...); err != nil {
		return subFailed(err, "the report was written but not signed")
	}
	return nil
}
