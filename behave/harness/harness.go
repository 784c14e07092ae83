// Package harness drives an artifact in a sandbox with a driver model,
// has a judge model grade each transcript, probes MCP servers with real
// malicious arguments, and scans the ledgers deterministically
// (ARCHITECTURE §4).
package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/behave/proxy"
)

// Options configure a behavioral run.
type Options struct {
	Sandbox behave.Sandbox
	// Agent is the executable holding the in-sandbox agent (attest itself).
	Agent string
	// Dir is the artifact: exactly the evaluated files.
	Dir  string
	Kind string
	// AllowedTools is a skill's allowed-tools (empty: bash, read, write).
	AllowedTools []string
	// Launch is how an MCP server starts inside the sandbox.
	Launch                   []string
	Driver, Judge, Synthesis *model.Role
	// Repeat runs each case this many times (default 1); K is the k of
	// pass@k and pass^k (default Repeat).
	Repeat, K int
	// NoProbes leaves the adversarial probes out.
	NoProbes bool
	// Transcripts, when set, is where transcripts are stored.
	Transcripts string
	AllowHosts  []string
	// DenyHosts are never reachable (the configured model endpoints).
	DenyHosts []string
	Limits    behave.Limits
	// NoTrace leaves strace out (files and processes unrecorded).
	NoTrace  bool
	MaxTurns int
	// CallTimeout bounds one tool call, and an MCP server's start
	// (default 60 s).
	CallTimeout time.Duration
	// Progress receives a line per step.
	Progress func(format string, a ...any)
	// Proxy adjusts each run's proxy (tests serve allowed hosts locally).
	Proxy func(*proxy.Proxy)
	// Registries are where an MCP server's dependencies come from.
	Registries Registries
	// MCPURL, when set, is where the MCP server listens for Streamable
	// HTTP inside the sandbox (a loopback URL); otherwise it speaks stdio.
	MCPURL string
}

// PassThreshold is the judge score a run needs to pass.
const PassThreshold = 0.7

func (o *Options) defaults() {
	if o.Repeat <= 0 {
		o.Repeat = 1
	}
	if o.K <= 0 || o.K > o.Repeat {
		o.K = o.Repeat
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = time.Minute
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = 12
	}
	if o.Limits == (behave.Limits{}) {
		o.Limits = behave.DefaultLimits
	}
	if o.Progress == nil {
		o.Progress = func(string, ...any) {}
	}
}

// HostOf names the host of a base URL, for DenyHosts.
func HostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// run is one behavioral run in progress.
type run struct {
	o      Options
	obs    *behave.Observation
	docs   string
	canary string
	// tag labels the ledger events of the run in progress.
	tag   string
	noted map[string]bool
	// entry runs a code agent (agent.json "entry").
	entry []string
}

// noteOnce records a note of the run (how dependencies were installed).
func (r *run) noteOnce(n string) {
	if n == "" || r.noted[n] {
		return
	}
	if r.noted == nil {
		r.noted = map[string]bool{}
	}
	r.noted[n] = true
	r.obs.Notes = append(r.obs.Notes, n)
}

// Run drives the artifact and returns what it saw. An error is returned
// only when nothing could run at all (no sandbox); a provider outage or a
// failed case is recorded in the observation as an error of the run.
func Run(ctx context.Context, o Options) (*behave.Observation, error) {
	o.defaults()
	var b [12]byte
	rand.Read(b[:])
	r := &run{o: o, canary: "attestcanary" + hex.EncodeToString(b[:]),
		obs: &behave.Observation{Kind: o.Kind, PassThreshold: PassThreshold, Cases: []behave.Case{}, Probes: []behave.Probe{},
			Safety: []behave.SafetyFinding{}, Ledger: behave.Ledger{Network: []behave.NetEvent{}, Files: []behave.FileEvent{}, Processes: []behave.ProcEvent{}}}}
	if o.Transcripts != "" {
		if err := os.MkdirAll(o.Transcripts, 0o755); err != nil {
			return nil, fmt.Errorf("the transcripts directory: %w", err)
		}
	}
	var err error
	if r.docs, err = Documentation(o.Dir, o.Kind); err != nil {
		return nil, err
	}
	switch o.Kind {
	case "skill":
		r.obs.Harness = o.Kind
	case "agent":
		r.obs.Harness = "agent"
		instructions, entry := agentJSON(o.Dir)
		if entry != "" {
			if r.entry = entryArgv(o.Dir, entry); r.entry == nil {
				r.obs.Skipped = fmt.Sprintf("agent.json's entry %q is not a file of the agent", entry)
				return r.obs, nil
			}
			r.obs.Harness = "agent-code"
		} else if instructions != "" && r.docs == "" {
			r.docs = clip(instructions, maxDocs)
		}
	case "mcp":
		r.obs.Harness = "mcp"
		if len(o.Launch) == 0 {
			r.obs.Skipped = LaunchHint(o.Dir)
			return r.obs, nil
		}
	case "plugin":
		r.obs.Harness = "plugin"
		if err := r.plugin(ctx); err != nil {
			return nil, err
		}
		r.obs.Safety = behave.Scan(&r.obs.Ledger)
		if len(r.obs.Cases) == 0 && len(r.obs.Probes) == 0 && len(r.obs.Hooks) == 0 && len(r.obs.Errors) == 0 {
			r.obs.Skipped = "the plugin bundles no skill, hook command or MCP server to run"
		}
		return r.obs, nil
	default:
		r.obs.Skipped = "no behavioral harness for " + o.Kind + " artifacts"
		return r.obs, nil
	}
	cases, err := r.cases(ctx, r.o.Dir)
	if err != nil {
		r.obs.Errors = append(r.obs.Errors, err.Error())
	}
	if err := r.runCases(ctx, cases, ""); err != nil {
		return nil, err
	}
	r.obs.Safety = behave.Scan(&r.obs.Ledger)
	if (o.Kind == "skill" || o.Kind == "agent") && r.entry == nil && !o.NoProbes {
		o.Progress("adversarial probe: indirect injection")
		if err := r.probeSkill(ctx); err != nil {
			if errors.Is(err, behave.ErrUnavailable) {
				return nil, err
			}
			r.obs.Errors = append(r.obs.Errors, "probes: "+err.Error())
		}
	}
	if o.Kind == "mcp" && !o.NoProbes {
		o.Progress("adversarial probes")
		if err := r.probe(ctx, ""); err != nil {
			if errors.Is(err, behave.ErrUnavailable) {
				return nil, err
			}
			r.obs.Errors = append(r.obs.Errors, "probes: "+err.Error())
		}
	}
	if r.obs.Ledger.Method == "" {
		r.obs.Ledger.Method = "none"
	}
	return r.obs, nil
}

// runCases runs each case Repeat times; prefix names the component the
// cases belong to (a plugin's skill).
func (r *run) runCases(ctx context.Context, cases []Case, prefix string) error {
	o := r.o
	for _, c := range cases {
		id := prefix + c.ID
		bc := behave.Case{ID: id, Source: c.Source, Prompt: c.Prompt, Runs: []behave.CaseRun{}}
		var scores []float64
		var passes []bool
		for rep := 0; rep < o.Repeat; rep++ {
			o.Progress("case %s, run %d of %d", id, rep+1, o.Repeat)
			r.tag = id
			if o.Repeat > 1 {
				r.tag = fmt.Sprintf("%s#%d", id, rep+1)
			}
			cr, l, err := r.runCase(ctx, c, rep)
			if err != nil {
				if errors.Is(err, behave.ErrUnavailable) {
					return err
				}
				cr.Error = err.Error()
			}
			r.obs.Ledger.Merge(l, r.tag)
			if cr.Score != nil {
				scores = append(scores, *cr.Score)
				passes = append(passes, *cr.Pass)
			}
			bc.Runs = append(bc.Runs, cr)
		}
		bc.Stats = behave.Summarize(scores, passes, o.K)
		r.obs.Cases = append(r.obs.Cases, bc)
	}
	return nil
}

// withNetwork puts the proxy's ledger into a sandbox's ledger of files and
// processes.
func withNetwork(l *behave.Ledger, p *proxy.Proxy) {
	if l == nil {
		return
	}
	ev, trunc := p.Events()
	l.Network, l.Truncated = ev, l.Truncated || trunc
}

// startProxy starts a run's recording proxy.
func (r *run) startProxy() (*proxy.Proxy, string, error) {
	p := &proxy.Proxy{Allow: r.o.AllowHosts, Deny: r.o.DenyHosts, Canary: r.canary}
	if r.o.Proxy != nil {
		r.o.Proxy(p)
	}
	dir, err := p.Start()
	return p, dir, err
}

func (r *run) agentSpec(proxyDir string, argv []string) behave.AgentSpec {
	return behave.AgentSpec{Artifact: r.o.Dir, Agent: r.o.Agent, ProxyDir: proxyDir, Canary: r.canary,
		Trace: !r.o.NoTrace, Limits: r.o.Limits, Argv: argv}
}

// store writes a transcript under its digest.
func (r *run) store(t *behave.Transcript) (string, error) {
	data, sum, err := t.Canonical()
	if err != nil {
		return "", err
	}
	if r.o.Transcripts != "" {
		if err := os.WriteFile(filepath.Join(r.o.Transcripts, sum+".json"), data, 0o644); err != nil {
			return "", fmt.Errorf("storing a transcript: %w", err)
		}
	}
	return sum, nil
}

func record(role *model.Role) behave.ModelRecord {
	if role == nil {
		return behave.ModelRecord{}
	}
	return role.Record()
}

func turns(msgs []model.Message) []behave.Turn {
	out := make([]behave.Turn, 0, len(msgs))
	for _, m := range msgs {
		t := behave.Turn{Role: m.Role, Parts: []behave.TurnPart{}}
		for _, p := range m.Parts {
			t.Parts = append(t.Parts, behave.TurnPart{Type: p.Type, Text: p.Text, ID: p.ID, Name: p.Name, Input: p.Input, IsError: p.IsError})
		}
		out = append(out, t)
	}
	return out
}

// clip keeps a tool's output within what a model is shown.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("\n[… %d more bytes]", len(s)-n)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// Documentation is what the driver is given: a skill's SKILL.md, an MCP
// server's README, an agent's file.
func Documentation(dir, kind string) (string, error) {
	var names []string
	switch kind {
	case "skill":
		names = []string{"SKILL.md"}
	case "agent":
		names = []string{"AGENT.md", "agent.md", "README.md"}
	default:
		names = []string{"README.md", "readme.md", "README", "docs/README.md"}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	for _, n := range names {
		f, err := root.Open(n)
		if err != nil {
			continue
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxDocs))
		return string(b), err
	}
	if kind == "agent" {
		if ents, err := os.ReadDir(filepath.Join(dir, "agents")); err == nil {
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".md") {
					data, err := root.ReadFile("agents/" + e.Name())
					if err == nil {
						return clip(string(data), maxDocs), nil
					}
				}
			}
		}
	}
	return "", nil
}

// maxDocs bounds the documentation given to the models.
const maxDocs = 64 << 10
