package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve/installed"
)

// scanned is one installed artifact with its evaluation.
type scanned struct {
	installed.Artifact
	Verdict string   `json:"verdict,omitempty"`
	Overall *float64 `json:"overall,omitempty"`
	Digest  string   `json:"sha256,omitempty"`
	Tools   []string `json:"tools,omitempty"`
	Error   string   `json:"error,omitempty"`
}

type scanResult struct {
	Artifacts   []scanned        `json:"artifacts"`
	SetFindings []mcp.SetFinding `json:"setFindings"`
	Unreadable  []string         `json:"unreadable,omitempty"`
}

func newScanCmd(a *app) *cobra.Command {
	var inst, asJSON, net, noCache bool
	cmd := &cobra.Command{
		Use:   "scan --installed [--json] [--net]",
		Short: "Find and evaluate what your agent clients have installed",
		Long: `Find what the agent clients on this machine have installed, from their
configuration files (read only, nothing is run): Claude Code (user and
project skills, agents, plugins, settings hooks, MCP servers in
~/.claude.json and .mcp.json), Claude Desktop, Cursor, VS Code, Windsurf,
Gemini CLI and Codex. Each artifact attest can resolve is evaluated: local
skills, plugins and agents, MCP servers started from a local script, and,
with --net, servers started by npx or uvx (their npm or PyPI package);
remote MCP URLs and containers are listed, not evaluated.

Then the set is judged as a whole: a toxic combination (something reads
untrusted content, something reads private data, something sends data
out: the lethal trifecta, across servers too) and tool names two servers
share. Exit 1 on a set finding or a failing artifact.

Paths per OS: Claude Desktop reads ~/.config/Claude (Linux),
~/Library/Application Support/Claude (macOS) or %APPDATA%\Claude
(Windows); VS Code's user mcp.json is in the matching Code/User
directory; the others are under the home directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !inst {
				return withCode(exitError, errors.New("say what to scan: --installed (what the agent clients on this machine have installed)"))
			}
			env, err := installed.DefaultEnv()
			if err != nil {
				return withCode(exitError, err)
			}
			found, errs := installed.Find(env)
			res := scanResult{SetFindings: []mcp.SetFinding{}}
			for _, e := range errs {
				res.Unreadable = append(res.Unreadable, e.Error())
			}
			var targets []string
			var at []int
			for i, f := range found {
				res.Artifacts = append(res.Artifacts, scanned{Artifact: f})
				remote := strings.HasPrefix(f.Target, "npm:") || strings.HasPrefix(f.Target, "pypi:")
				switch {
				case f.Target == "":
				case remote && !net:
					res.Artifacts[i].Error = "not fetched: a package from a registry (scan with --net to fetch and evaluate it)"
				default:
					targets = append(targets, f.Target)
					at = append(at, i)
				}
			}
			opts := attest.Options{ToolVersion: Version}
			if !noCache {
				if dir, err := attest.DefaultCacheDir(); err == nil {
					opts.Cache = &attest.Cache{Dir: dir}
				}
			}
			failed := 0
			attest.Batch(cmd.Context(), targets, runtime.NumCPU(), opts, func(it attest.BatchItem) {
				s := &res.Artifacts[at[it.Index]]
				if it.Err != nil {
					s.Error = explainEvalError(it.Target, it.Err).Error()
					return
				}
				r := it.Report
				s.Verdict, s.Overall, s.Digest = r.Score.Verdict, r.Score.Overall, r.Subject.Digest.SHA256
				if r.Score.Verdict == policy.VerdictFail {
					failed++
				}
				if r.Surface != nil {
					for _, t := range r.Surface.Tools {
						s.Tools = append(s.Tools, t.Name)
					}
				}
			})
			tools := map[string][]string{}
			for _, s := range res.Artifacts {
				if s.Kind == "mcp" && len(s.Tools) > 0 {
					tools[s.Client+":"+s.Name] = s.Tools
				}
			}
			res.SetFindings = mcp.Analyze(tools)
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(res); err != nil {
					return withCode(exitError, err)
				}
			} else {
				writeScan(a.stdout, res)
			}
			for _, u := range res.Unreadable {
				fmt.Fprintf(a.stderr, "note: could not read %s\n", u)
			}
			if len(res.SetFindings) > 0 || failed > 0 {
				return errSilentFail
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&inst, "installed", false, "scan what the agent clients on this machine have installed")
	cmd.Flags().BoolVar(&asJSON, "json", false, "the scan as JSON")
	cmd.Flags().BoolVar(&net, "net", false, "fetch and evaluate MCP servers started from npm or PyPI packages ")
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "evaluate every artifact, even those whose report is cached")
	return cmd
}

func writeScan(w io.Writer, res scanResult) {
	t := render.Terminal
	if len(res.Artifacts) == 0 {
		fmt.Fprintln(w, "nothing installed found")
		return
	}
	fmt.Fprintf(w, "%-15s %-8s %-7s %-28s %7s  %-8s %s\n", "CLIENT", "SCOPE", "KIND", "NAME", "SCORE", "VERDICT", "")
	for _, s := range res.Artifacts {
		score, verdict, note := "-", "-", s.Note
		if s.Overall != nil {
			score = fmt.Sprintf("%.1f", *s.Overall)
		}
		if s.Verdict != "" {
			verdict = s.Verdict
		}
		if s.Error != "" {
			note = s.Error
		}
		if s.URL != "" {
			note = s.URL + ": " + note
		}
		fmt.Fprintf(w, "%-15s %-8s %-7s %-28s %7s  %-8s %s\n", s.Client, s.Scope, s.Kind, t(trimTo(s.Name, 28)), score, verdict, t(note))
	}
	if len(res.SetFindings) == 0 {
		fmt.Fprintf(w, "\nno toxic combination or shadowed tool among %s\n", checks.Plural(len(res.Artifacts), "artifact"))
		return
	}
	fmt.Fprintf(w, "\nfindings about the set (%d):\n", len(res.SetFindings))
	for _, f := range res.SetFindings {
		fmt.Fprintf(w, "  %s: %s\n", f.Kind, t(f.Summary))
	}
}
