package main

import (
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/resolve"
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
			if h, err := resolve.NetHelper(); err == nil {
				fmt.Fprintf(w, "net      off by default; remote targets and --net (OSV advisories) go through %s\n", h)
			} else {
				fmt.Fprintf(w, "net      off by default; remote targets and --net cannot run: %v\n", err)
			}
			if h, err := resolve.VerifyHelper(); err == nil {
				fmt.Fprintf(w, "verify   attest verify goes through %s\n", h)
			} else {
				fmt.Fprintf(w, "verify   attest verify cannot run: %v\n", err)
			}
			model := "not configured: no ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment"
			for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY"} {
				if a.getenv(k) != "" {
					model = "key present in " + k + " (not verified)"
					break
				}
			}
			fmt.Fprintln(w, "model    "+model)
			if v, err := (&behave.Bubblewrap{}).Probe(cmd.Context()); err == nil {
				fmt.Fprintf(w, "sandbox  %s runs here (the default)\n", v)
			} else {
				fmt.Fprintf(w, "sandbox  %v\n", err)
			}
			for _, engine := range []string{"podman", "docker", "runsc"} {
				if p, err := exec.LookPath(engine); err == nil {
					fmt.Fprintf(w, "         %s found at %s (not used yet)\n", engine, p)
				}
			}
			return nil
		},
	}
}
