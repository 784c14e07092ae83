package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// signFlags are how a report is signed, shared by sign and run --sign.
type signFlags struct {
	key, log, config string
	keyless          bool
}

func (f signFlags) args() []string {
	var a []string
	if f.keyless {
		a = append(a, "--keyless")
	} else {
		a = append(a, "--key", f.key)
	}
	if f.log != "" {
		a = append(a, "--log", f.log)
	}
	if f.config != "" {
		a = append(a, "--signing-config", f.config)
	}
	return a
}

func newSignCmd(a *app) *cobra.Command {
	var f signFlags
	var out, purl string
	var checksums bool
	cmd := &cobra.Command{
		Use:   "sign (--key KEY.pem | --keyless) [--log URL] [--signing-config FILE] [--out FILE] REPORT.json",
		Short: "Sign a saved report as an in-toto attestation (Sigstore bundle)",
		Long: `Sign a report written by 'attest run --json': an in-toto Statement v1
whose subject is the artifact ("<kind>:<name>" with the tree's sha256) and
whose predicate is the report, in a DSSE envelope, written as a Sigstore
bundle v0.3 (REPORT.sigstore.json unless --out says otherwise; an existing
file is never overwritten).

With --key, any Sigstore verifier given the public key (attest keygen
writes it) can check it. --log URL also records the signature in a
Rekor v2 log (attest log serve, rekor-tiles, Sigstore's) and puts the
entry, its inclusion proof and the signed checkpoint in the bundle; a
Rekor v2 log takes no pure ed25519 signature, so log with an ecdsa-p256
key (attest keygen --algorithm ecdsa-p256).

With --keyless, an ephemeral key is certified for your OIDC identity by
the signing config's certificate authority (Fulcio), the signature is
timestamped by its timestamp authority and recorded in its logs. The
identity token comes from SIGSTORE_ID_TOKEN, GitHub Actions (a job with
'permissions: id-token: write'), or a browser login when a terminal is
attached. Without --signing-config, Sigstore's public-good instance is
used; a private deployment gives its signing_config.json. Verifiers then
check the signer with --identity and --issuer against the deployment's
trusted root.

With --checksums, the input is a release's checksums.txt and the bundle
an in-toto release attestation (https://in-toto.io/attestation/release/v0.1)
whose subjects are the files it lists; the release build signs attest's
own releases so.`,
		Example: `  attest run ./my-skill --json -o report.json
  attest keygen --out publisher
  attest sign --key publisher.pem report.json
  SIGSTORE_ID_TOKEN=... attest sign --keyless --signing-config signing_config.json report.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (f.key == "") == !f.keyless {
				return withCode(exitError, errors.New("give --key KEY.pem (make one with 'attest keygen --out NAME') or --keyless, one of them"))
			}
			argv := append([]string{"sign"}, f.args()...)
			if out != "" {
				argv = append(argv, "--out", out)
			}
			if checksums {
				argv = append(argv, "--checksums", "--purl", purl)
			}
			if err := a.sub(cmd.Context(), a.stdout, append(argv, args[0])...); err != nil {
				return subFailed(err, "signing failed")
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.key, "key", "", "PKCS#8 private key (attest keygen)")
	fl.BoolVar(&f.keyless, "keyless", false, "sign with a short-lived certificate for your OIDC identity")
	fl.StringVar(&f.log, "log", "", "record the signature in this Rekor v2 log")
	fl.StringVar(&f.config, "signing-config", "", "Sigstore signing_config.json: certificate authority, timestamp authorities, logs (default with --keyless: the public-good instance)")
	fl.StringVar(&out, "out", "", "bundle file to write (default: REPORT with .sigstore.json)")
	fl.BoolVar(&checksums, "checksums", false, "sign a release instead: an in-toto release attestation of every file a checksums.txt lists (with --key, --purl and --out)")
	fl.StringVar(&purl, "purl", "", "with --checksums: the release's package URL, pkg:github/OWNER/REPO@VERSION")
	return cmd
}
