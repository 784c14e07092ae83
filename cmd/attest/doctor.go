package main

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
)

func newDoctorCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Show what can run on this machine",
		Long: `Show which tiers of evaluation can run here: the static checks (always),
and the status of the network, model and sandbox capabilities that the
behavioral tier and networked checks need. It changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := a.stdout
			cat, err := suite.Default()
			if err != nil {
				return withCode(exitError, err)
			}
			static, needing := 0, 0
			for _, c := range cat.Checks() {
				if len(c.Needs) == 0 || len(c.Needs) == 1 && c.Needs[0] == checks.Clock {
					static++
				} else {
					needing++
				}
			}
			fmt.Fprintf(w, "static   ready: %d checks run offline with no capability\n", static)
			if needing > 0 {
				fmt.Fprintf(w, "         %d more need a capability this run may not grant\n", needing)
			}
			fmt.Fprintln(w, "net      off by default: --net grants it to the checks that ask OSV; remote targets are fetched when named")
			var keys []string
			for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "LOCAL_LLM_BASE_URL"} {
				if a.getenv(k) != "" {
					keys = append(keys, k)
				}
			}
			saved := "attest setup has not been run"
			if p, err := behave.UserConfigPath(); err == nil {
				if cfg, ok, err := behave.LoadUserConfig(p); err != nil {
					saved = err.Error()
				} else if ok {
					saved = fmt.Sprintf("attest setup chose the %s sandbox and the %s provider (%s)", cfg.Sandbox, cfg.Provider, p)
				}
			}
			switch len(keys) {
			case 0:
				fmt.Fprintf(w, "model    no provider key in the environment; %s\n", saved)
			case 1:
				fmt.Fprintf(w, "model    %s set (wins over attest setup; not verified here); %s\n", keys[0], saved)
			default:
				fmt.Fprintf(w, "model    several providers set (%s): behavioral runs need --provider; %s\n", strings.Join(keys, ", "), saved)
			}
			for _, name := range []string{"bubblewrap", "podman", "docker", "gvisor"} {
				sb, _ := behave.SandboxNamed(name)
				if v, err := sb.Probe(cmd.Context()); err == nil {
					fmt.Fprintf(w, "sandbox  %s: works here (%s)\n", name, v)
				} else {
					fmt.Fprintf(w, "sandbox  %s: %v\n", name, err)
				}
			}
			if a.getenv("E2B_API_KEY") != "" {
				fmt.Fprintln(w, "sandbox  e2b: E2B_API_KEY set (a cloud VM per run, internet off; attest setup --sandbox e2b tries it)")
			} else {
				fmt.Fprintln(w, "sandbox  e2b: not available: E2B_API_KEY is not set")
			}
			if _, err := exec.LookPath("strace"); err != nil {
				fmt.Fprintln(w, "ledger   strace is not installed: behavioral runs record the network only (apt-get install -y strace)")
			} else {
				fmt.Fprintln(w, "ledger   strace records files and processes under bubblewrap")
			}
			return nil
		},
	}
}
