package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newSignCmd(a *app) *cobra.Command {
	var key, out string
	cmd := &cobra.Command{
		Use:   "sign --key KEY.pem [--out FILE] REPORT.json",
		Short: "Sign a saved report as an in-toto attestation (Sigstore bundle)",
		Long: `Sign a report written by 'attest run --json': an in-toto Statement v1
whose subject is the artifact ("<kind>:<name>" with the tree's sha256) and
whose predicate is the report, in a DSSE envelope, written as a Sigstore
bundle v0.3 (REPORT.sigstore.json unless --out says otherwise; an existing
file is never overwritten). Any Sigstore verifier given the public key
(attest keygen writes it) can check it. Signing runs in the attest-net
companion, which holds the Sigstore libraries.`,
		Example: `  attest run ./my-skill --json -o report.json
  attest keygen --out publisher
  attest sign --key publisher.pem report.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return withCode(exitError, errors.New("--key KEY.pem is required (make one with 'attest keygen --out NAME')"))
			}
			argv := []string{"sign", "--key", key}
			if out != "" {
				argv = append(argv, "--out", out)
			}
			if err := a.companion(cmd.Context(), a.stdout, append(argv, args[0])...); err != nil {
				return companionFailed(err, "signing failed")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "PKCS#8 private key (attest keygen)")
	cmd.Flags().StringVar(&out, "out", "", "bundle file to write (default: REPORT with .sigstore.json)")
	return cmd
}
