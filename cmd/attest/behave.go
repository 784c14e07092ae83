package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/metahub-ai/attest/behave"
	skillallowedtools "github.com/metahub-ai/attest/checks/skill-allowed-tools"
	"github.com/metahub-ai/attest/resolve"
)

// behaveFlags are the behavioral tier's flags of attest run.
type behaveFlags struct {
	on, off     bool
	sandbox     string
	provider    string
	model       string
	judgeModel  string
	repeat      int
	k           int
	transcripts string
	allowHosts  []string
	mcpCommand  string
	mcpURL      string
	noProbes    bool
}

func (b *behaveFlags) add(f *pflag.FlagSet) {
	f.BoolVar(&b.on, "behavioral", false, "run the artifact in the sandbox with a model and judge what it did (also past a static safety veto; needs attest setup or a provider key)")
	f.BoolVar(&b.off, "no-behavioral", false, "never run the behavioral tier, even after attest setup on a terminal")
	f.StringVar(&b.sandbox, "sandbox", "", "sandbox for the behavioral tier: bubblewrap (default on Linux), podman, docker, gvisor, e2b (E2B_API_KEY)")
	f.StringVar(&b.provider, "provider", "", "model provider: anthropic, openai, openai-responses, openrouter or local (needed when several keys are set)")
	f.StringVar(&b.model, "model", "", "the driver's model (default: the provider's, or attest setup's)")
	f.StringVar(&b.judgeModel, "judge-model", "", "the judge's model (default: the driver's model with the judge's own settings)")
	f.IntVar(&b.repeat, "repeat", 1, "run each behavioral case this many times (mean, spread, confidence interval, pass@k and pass^k)")
	f.IntVar(&b.k, "k", 0, "the k of pass@k and pass^k (default: --repeat)")
	f.StringVar(&b.transcripts, "transcripts", "", "store the behavioral transcripts in this directory (for attest replay)")
	f.StringSliceVar(&b.allowHosts, "allow-host", nil, "let the sandboxed artifact reach this host through the recording proxy (repeatable; *.example.com for subdomains)")
	f.StringVar(&b.mcpCommand, "mcp-command", "", "how the MCP server starts inside the sandbox, e.g. 'node dist/index.js' (default: found from the package)")
	f.StringVar(&b.mcpURL, "mcp-url", "", "the MCP server speaks Streamable HTTP at this loopback URL inside the sandbox, e.g. http://127.0.0.1:3000/mcp (default: stdio)")
	f.BoolVar(&b.noProbes, "no-probes", false, "leave out the adversarial probes of an MCP server")
}

// wanted decides whether the behavioral tier runs, only ever when asked:
// --no-behavioral always wins; --behavioral forces it; attest.json's
// "behavioral" (config) turns it on. attest setup alone never does.
func (b *behaveFlags) wanted(config bool) (bool, string, error) {
	switch {
	case b.on && b.off:
		return false, "", errors.New("--behavioral and --no-behavioral contradict each other")
	case b.off:
		return false, "", nil
	case b.repeat < 1 || b.k < 0:
		return false, "", errors.New("--repeat must be at least 1 and --k at least 0")
	case b.on:
		return true, "", nil
	case config:
		return true, `running the behavioral tier ("behavioral": true in the configuration); --no-behavioral skips it`, nil
	}
	return false, "", nil
}

// hook runs the behavioral tier on the copy of the artifact.
func (b *behaveFlags) hook(a *app) func(ctx context.Context, subj *resolve.Subject, dir string) (*behave.Outcome, error) {
	return func(ctx context.Context, subj *resolve.Subject, dir string) (*behave.Outcome, error) {
		args := []string{"behave", "--dir", dir, "--kind", string(subj.Kind),
			"--repeat", strconv.Itoa(b.repeat), "--k", strconv.Itoa(b.k)}
		for k, v := range map[string]string{"--sandbox": b.sandbox, "--provider": b.provider, "--model": b.model,
			"--judge-model": b.judgeModel, "--transcripts": b.transcripts, "--mcp-command": b.mcpCommand, "--mcp-url": b.mcpURL} {
			if v != "" {
				args = append(args, k, v)
			}
		}
		for _, h := range b.allowHosts {
			args = append(args, "--allow-host", h)
		}
		if b.noProbes {
			args = append(args, "--no-probes")
		}
		if subj.Kind == resolve.KindSkill && subj.Manifests.Skill.Ok() {
			for _, t := range allowedTools(subj) {
				args = append(args, "--allowed-tool", t)
			}
		}
		var out bytes.Buffer
		if err := a.sub(ctx, &out, args...); err != nil {
			return nil, subFailed(err, "the behavioral run failed")
		}
		var o behave.Outcome
		dec := json.NewDecoder(&out)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil || o.Observation == nil {
			return nil, fmt.Errorf("the behavioral run's answer is not what attest expects (%v): this is a bug", err)
		}
		return &o, nil
	}
}

// allowedTools reads a skill's allowed-tools as skill-allowed-tools does.
func allowedTools(subj *resolve.Subject) []string {
	if k := subj.Manifests.Skill.V.Get("allowed-tools"); k != nil {
		return skillallowedtools.Tools(k.Value)
	}
	return nil
}
