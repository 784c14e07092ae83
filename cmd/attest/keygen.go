package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newKeygenCmd(a *app) *cobra.Command {
	var alg, out string
	cmd := &cobra.Command{
		Use:   "keygen [--algorithm ed25519|ecdsa-p256] --out NAME",
		Short: "Make a signing key pair for attestations",
		Long: `Write a new signing key pair: NAME.pem, the PKCS#8 private key (mode
0600), and NAME.pub.pem, the SPKI public key, and print the key id (hex
SHA-256 of the public key's DER) that policies name. An existing file is
never overwritten. ed25519 is the default; ecdsa-p256 suits verifiers
such as cosign and transparency logs that refuse pure ed25519.`,
		Example: `  attest keygen --out publisher
  attest keygen --algorithm ecdsa-p256 --out ci-signer`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return withCode(exitError, errors.New("--out NAME is required: the key pair is written to NAME.pem and NAME.pub.pem"))
			}
			if err := a.sub(cmd.Context(), a.stdout, "keygen", "--algorithm", alg, "--out", out); err != nil {
				return subFailed(err, "no key was written")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&alg, "algorithm", "ed25519", "key algorithm: ed25519 or ecdsa-p256")
	cmd.Flags().StringVar(&out, "out", "", "base name of the key files (NAME.pem, NAME.pub.pem)")
	return cmd
}
