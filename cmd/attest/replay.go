package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newReplayCmd(a *app) *cobra.Command {
	var dir, provider, judgeModel string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay REPORT --transcripts DIR",
		Short: "Re-hash and re-judge the stored transcripts of a behavioral run",
		Long: `Check a behavioral run after the fact. Every transcript the report names
(behavior.cases[].runs[].transcript, behavior.probes[].transcript) must be
in DIR as SHA256.json, byte for byte the canonical JSON that digest was
taken of; each graded run is then judged again by the judge model the
report records (environment.models.judge), or by --provider and
--judge-model, which is said. Exit 1 when a transcript is missing or
altered, or a verdict is not reproduced.`,
		Example: `  attest run ./my-skill --behavioral --transcripts runs/ --json -o report.json
  attest replay report.json --transcripts runs/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return withCode(exitError, errors.New("replay needs --transcripts DIR: where attest run --transcripts stored them"))
			}
			cargs := []string{"replay", "--transcripts", dir}
			if provider != "" {
				cargs = append(cargs, "--provider", provider)
			}
			if judgeModel != "" {
				cargs = append(cargs, "--judge-model", judgeModel)
			}
			if asJSON {
				cargs = append(cargs, "--json")
			}
			return subFailed(a.sub(cmd.Context(), a.stdout, append(cargs, args[0])...), "replay failed")
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "transcripts", "", "the directory the run stored its transcripts in (attest run --transcripts)")
	f.StringVar(&provider, "provider", "", "judge with this provider instead of the recorded one")
	f.StringVar(&judgeModel, "judge-model", "", "judge with this model instead of the recorded one")
	f.BoolVar(&asJSON, "json", false, "one JSON line per transcript")
	return cmd
}

func newSetupCmd(a *app) *cobra.Command {
	var sandbox, provider, model, judgeModel, baseURL string
	var keyStdin bool
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Choose the sandbox and the model of behavioral runs",
		Long: `Choose, once, the sandbox and the model provider that behavioral runs use.
The sandbox is tried (a command is run in it); the API key is checked
with the provider before anything is saved: a refused key (401, 403) saves
nothing, a provider error (5xx) saves with a warning. The choice goes to
~/.attest/config.json (or $ATTEST_HOME/config.json) with mode 0600.
Environment variables (ANTHROPIC_API_KEY, OPENAI_API_KEY,
OPENROUTER_API_KEY, LOCAL_LLM_BASE_URL, the *_BASE_URL overrides) always
win over it; a key found in the environment is used, not saved.

After setup, 'attest run' on a terminal also runs the behavioral tier;
without a terminal it needs --behavioral, and --no-behavioral always
skips it. On a terminal it asks for what the flags do not say; otherwise
the flags are the whole answer.`,
		Example: `  attest setup
  echo "$KEY" | attest setup --sandbox bubblewrap --provider anthropic --key-stdin`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cargs := []string{"setup"}
			for k, v := range map[string]string{"--sandbox": sandbox, "--provider": provider, "--model": model, "--judge-model": judgeModel, "--base-url": baseURL} {
				if v != "" {
					cargs = append(cargs, k, v)
				}
			}
			if keyStdin {
				cargs = append(cargs, "--key-stdin")
			}
			if err := setupMain(cmd.Context(), cargs[1:], a.stdin, a.stdout, a.stderr); err != nil {
				return subFailed(err, "setup failed")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&sandbox, "sandbox", "", "bubblewrap, podman, docker, gvisor or e2b")
	f.StringVar(&provider, "provider", "", "anthropic, openai, openai-responses, openrouter or local")
	f.StringVar(&model, "model", "", "the driver's model (default: the provider's)")
	f.StringVar(&judgeModel, "judge-model", "", "the judge's model (default: the driver's, called as a judge)")
	f.StringVar(&baseURL, "base-url", "", "the provider's endpoint, for a gateway or a local server")
	f.BoolVar(&keyStdin, "key-stdin", false, "read the API key from standard input")
	return cmd
}
