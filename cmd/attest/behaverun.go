package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/e2b"
	"github.com/metahub-ai/attest/behave/harness"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/resolve"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// modelFlags are the provider and model flags shared by behave, replay and
// setup.
type modelFlags struct{ provider, model, judgeModel string }

func (m *modelFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&m.provider, "provider", "", "model provider")
	fs.StringVar(&m.model, "model", "", "the driver's model")
	fs.StringVar(&m.judgeModel, "judge-model", "", "the judge's model")
}

// settings resolves flags, the environment and attest setup's file.
func (m *modelFlags) settings() (model.Settings, behave.UserConfig, error) {
	path, err := behave.UserConfigPath()
	if err != nil {
		return model.Settings{}, behave.UserConfig{}, err
	}
	cfg, _, err := behave.LoadUserConfig(path)
	if err != nil {
		return model.Settings{}, cfg, err
	}
	saved := model.Settings{Provider: cfg.Provider, Model: cfg.Model, JudgeModel: cfg.JudgeModel, Key: cfg.APIKey, BaseURL: cfg.BaseURL}
	s, err := model.Resolve(model.Settings{Provider: m.provider, Model: m.model, JudgeModel: m.judgeModel}, saved, os.Getenv)
	return s, cfg, err
}

// The roles' sampling parameters; the judge differs from the driver in
// its call configuration even on the same model.
var (
	driverParams    = model.Params{Temperature: 0.2, MaxTokens: 4096}
	judgeParams     = model.Params{Temperature: 0, MaxTokens: 1024}
	synthesisParams = model.Params{Temperature: 0.7, MaxTokens: 2048}
)

func roles(s model.Settings) (d, j, syn *model.Role, err error) {
	dc, err := model.New(s, s.Model, nil, model.Retry{})
	if err != nil {
		return nil, nil, nil, err
	}
	jm := s.JudgeModel
	if jm == "" {
		jm = s.Model
	}
	jc, err := model.New(s, jm, nil, model.Retry{})
	if err != nil {
		return nil, nil, nil, err
	}
	return &model.Role{Name: "driver", Client: dc, Params: driverParams},
		&model.Role{Name: "judge", Client: jc, Params: judgeParams},
		&model.Role{Name: "synthesis", Client: dc, Params: synthesisParams}, nil
}

// behaveMain runs the behavioral tier on a directory and prints the
// outcome as JSON (attest run --behavioral).
func behaveMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("behave", flag.ContinueOnError)
	dir := fs.String("dir", "", "the artifact (a copy of exactly the evaluated files)")
	kind := fs.String("kind", "", "its kind")
	sandbox := fs.String("sandbox", "", "sandbox")
	repeat := fs.Int("repeat", 1, "runs per case")
	k := fs.Int("k", 0, "k of pass@k")
	transcripts := fs.String("transcripts", "", "store transcripts here")
	mcpCommand := fs.String("mcp-command", "", "how the MCP server starts")
	mcpURL := fs.String("mcp-url", "", "where the MCP server listens for Streamable HTTP inside the sandbox")
	noProbes := fs.Bool("no-probes", false, "no probes")
	var allowHosts, allowedTools listFlag
	fs.Var(&allowHosts, "allow-host", "reachable host")
	fs.Var(&allowedTools, "allowed-tool", "a skill's allowed tool")
	var mf modelFlags
	mf.add(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *kind == "" {
		return errors.New("behave needs --dir and --kind")
	}
	s, cfg, err := mf.settings()
	if err != nil {
		return err
	}
	name := *sandbox
	if name == "" {
		name = cfg.Sandbox
	}
	sb, version, err := openSandbox(ctx, name)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	agentPath, agentDir, err := behave.InstallAgent(exe)
	if err != nil {
		return err
	}
	defer os.RemoveAll(agentDir)
	d, j, syn, err := roles(s)
	if err != nil {
		return err
	}
	o := harness.Options{Sandbox: sb, Agent: agentPath, Dir: *dir, Kind: *kind, AllowedTools: allowedTools,
		Driver: d, Judge: j, Synthesis: syn, Repeat: *repeat, K: *k, NoProbes: *noProbes, Transcripts: *transcripts,
		AllowHosts: allowHosts, DenyHosts: []string{harness.HostOf(s.BaseURL)}, Limits: behave.DefaultLimits,
		Progress:   func(format string, a ...any) { fmt.Fprintf(stderr, "behave: "+format+"\n", a...) },
		Registries: harness.Registries{NPM: firstEnv("NPM_CONFIG_REGISTRY", "npm_config_registry"), PyPI: os.Getenv("PIP_INDEX_URL")}}
	o.MCPURL = *mcpURL
	if *kind == "mcp" {
		if *mcpCommand != "" {
			o.Launch = strings.Fields(*mcpCommand)
		} else {
			o.Launch = harness.LaunchFor(*dir)
		}
	}
	obs, err := harness.Run(ctx, o)
	if err != nil {
		return err
	}
	env := &behave.Environment{
		Sandbox: &behave.SandboxRecord{Kind: sb.Name(), Version: version, Ledger: obs.Ledger.Method, Limits: o.Limits, AllowHosts: append([]string{}, allowHosts...)},
		Models:  map[string]behave.ModelRecord{"driver": d.Record(), "judge": j.Record(), "synthesis": syn.Record()},
	}
	return json.NewEncoder(stdout).Encode(behave.Outcome{Observation: obs, Environment: env})
}

// openSandbox finds the named sandbox (default bubblewrap) and checks it
// runs here.
func openSandbox(ctx context.Context, name string) (behave.Sandbox, string, error) {
	sb, err := behave.SandboxNamed(name)
	if errors.Is(err, behave.ErrCloud) {
		sb, err = e2b.FromEnv(), nil
	}
	if err != nil {
		return nil, "", err
	}
	v, err := sb.Probe(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("the %s sandbox cannot run here: %w ('attest doctor' says what works)", sb.Name(), err)
	}
	return sb, v, nil
}

// replayMain re-hashes and re-judges the stored transcripts of a report
// (attest replay).
func replayMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	dir := fs.String("transcripts", "", "where the transcripts are")
	asJSON := fs.Bool("json", false, "JSON lines")
	var mf modelFlags
	mf.add(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *dir == "" {
		return errors.New("replay needs --transcripts DIR and one report")
	}
	data, err := readLimited(fs.Arg(0), 64<<20)
	if err != nil {
		return err
	}
	var rep struct {
		Behavior    *behave.Observation `json:"behavior"`
		Environment struct {
			Models map[string]behave.ModelRecord `json:"models"`
		} `json:"environment"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("%s is not a report: %v", fs.Arg(0), err)
	}
	if rep.Behavior == nil || (len(rep.Behavior.Cases) == 0 && len(rep.Behavior.Probes) == 0) {
		return fmt.Errorf("%s holds no behavioral run to replay", fs.Arg(0))
	}
	recorded := rep.Environment.Models["judge"]
	if mf.judgeModel == "" && mf.provider == "" {
		mf.provider, mf.judgeModel = recorded.Provider, recorded.Model
	}
	s, _, err := mf.settings()
	if err != nil {
		return err
	}
	jm := s.JudgeModel
	if jm == "" {
		jm = s.Model
	}
	jc, err := model.New(s, jm, nil, model.Retry{})
	if err != nil {
		return err
	}
	if jc.Provider() != recorded.Provider || jc.Model() != recorded.Model {
		fmt.Fprintf(stderr, "note: re-judging with %s %s; the report was judged by %s %s\n", jc.Provider(), jc.Model(), recorded.Provider, recorded.Model)
	}
	judge := &model.Role{Name: "judge", Client: jc, Params: model.Params{Temperature: recorded.Temperature, MaxTokens: max(recorded.MaxTokens, 1)}}
	out, ok := harness.Replay(ctx, rep.Behavior, *dir, judge)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range out {
			enc.Encode(r)
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, r := range out {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Status, r.Case, r.Transcript[:min(12, len(r.Transcript))], r.Detail)
		}
		tw.Flush()
	}
	if !ok {
		return errFailed
	}
	fmt.Fprintf(stderr, "replay: %d transcript(s) intact, every verdict reproduced\n", len(out))
	return nil
}

func readLimited(p string, n int64) ([]byte, error) {
	f, err := resolve.OpenFile(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, n+1))
	if err == nil && int64(len(data)) > n {
		err = fmt.Errorf("%s is over %d bytes", p, n)
	}
	return data, err
}

// setupMain chooses a sandbox and a model once, checking the key with the
// provider before saving it (attest setup).
func setupMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	sandbox := fs.String("sandbox", "", "sandbox")
	keyStdin := fs.Bool("key-stdin", false, "read the API key from standard input")
	baseURL := fs.String("base-url", "", "the provider's endpoint (a local server's, or a gateway)")
	var mf modelFlags
	mf.add(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	in := bufio.NewReader(stdin)
	tty := false
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		tty = true
	}
	ask := func(q, def string) (string, error) {
		if !tty {
			return def, nil
		}
		fmt.Fprintf(stderr, "%s [%s]: ", q, def)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", err
		}
		if line = strings.TrimSpace(line); line != "" {
			return line, nil
		}
		return def, nil
	}
	path, err := behave.UserConfigPath()
	if err != nil {
		return err
	}
	prev, _, _ := behave.LoadUserConfig(path)
	cfg := prev
	if *sandbox == "" {
		def := prev.Sandbox
		if def == "" {
			def = "bubblewrap"
		}
		if *sandbox, err = ask("sandbox (bubblewrap, podman, docker, gvisor, e2b)", def); err != nil {
			return err
		}
	}
	sb, version, err := openSandbox(ctx, *sandbox)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sandbox: %s %s works here\n", sb.Name(), version)
	cfg.Sandbox = sb.Name()
	if mf.provider == "" {
		def := prev.Provider
		if def == "" {
			def = "anthropic"
		}
		if mf.provider, err = ask("model provider (anthropic, openai, openai-responses, openrouter, local)", def); err != nil {
			return err
		}
	}
	v, ok := model.VendorNamed(mf.provider)
	if !ok {
		return fmt.Errorf("unknown provider %q", mf.provider)
	}
	if cfg.Provider != v.Name {
		cfg = behave.UserConfig{Sandbox: cfg.Sandbox, Provider: v.Name}
	}
	if mf.model != "" {
		cfg.Model = mf.model
	} else if tty {
		def := cfg.Model
		if def == "" {
			def = v.DefaultModel
		}
		if cfg.Model, err = ask("model", def); err != nil {
			return err
		}
	}
	if mf.judgeModel != "" {
		cfg.JudgeModel = mf.judgeModel
	}
	if *baseURL != "" {
		cfg.BaseURL = *baseURL
	}
	key := ""
	switch {
	case *keyStdin:
		b, err := io.ReadAll(io.LimitReader(in, 64<<10))
		if err != nil {
			return err
		}
		key = strings.TrimSpace(string(b))
	case os.Getenv(v.KeyEnv) != "":
		fmt.Fprintf(stderr, "using %s from the environment (not saved: the environment always wins)\n", v.KeyEnv)
	case tty && v.Name != "local":
		fmt.Fprintf(stderr, "%s API key (not shown): ", v.Name)
		b, err := term.ReadPassword(int(stdin.(*os.File).Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return err
		}
		key = strings.TrimSpace(string(b))
	}
	if key != "" {
		cfg.APIKey = key
	}
	s, err := model.Resolve(model.Settings{Provider: cfg.Provider}, model.Settings{Provider: cfg.Provider, Model: cfg.Model, JudgeModel: cfg.JudgeModel, Key: cfg.APIKey, BaseURL: cfg.BaseURL}, os.Getenv)
	if err != nil {
		return fmt.Errorf("%w; nothing was saved", err)
	}
	switch err := model.CheckKey(ctx, s, nil); {
	case errors.Is(err, model.ErrAuth):
		return fmt.Errorf("%v; nothing was saved", err)
	case err != nil:
		fmt.Fprintf(stderr, "warning: %v; saving anyway (the provider, not the key, may be at fault)\n", err)
	default:
		fmt.Fprintf(stderr, "model: %s accepted the key\n", s.Provider)
	}
	if err := behave.SaveUserConfig(path, cfg); err != nil {
		return err
	}
	if e := os.Getenv(v.KeyEnv); e != "" && cfg.APIKey != "" && e != cfg.APIKey {
		fmt.Fprintf(stderr, "note: %s is set in the environment and wins over the saved key\n", v.KeyEnv)
	}
	fmt.Fprintf(stdout, "saved %s (mode 0600): sandbox %s, provider %s, model %s\n", path, cfg.Sandbox, cfg.Provider, s.Model)
	return nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
