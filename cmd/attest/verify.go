package main

import (
	"github.com/spf13/cobra"
)

func newVerifyCmd(a *app) *cobra.Command {
	var key, artifact, policyFile, vsaOut, vsaKey, identity, identityRE, issuer, trustedRoot string
	var require, insecure, asJSON bool
	cmd := &cobra.Command{
		Use:   "verify (--key PUB.pem | --identity SUBJECT --issuer URL | --policy FILE | --insecure-ignore-signer) [--trusted-root FILE] [--artifact DIR] [--json] BUNDLE|REPORT",
		Short: "Check a signed report the way a stranger would",
		Long: `Check a Sigstore bundle written by 'attest sign' (or a plain report),
answering each question separately, ok, warn or fail with a reason:

  signature        does it verify with the publisher's key (--key), or,
                   signed keyless, with a certificate the trusted root's
                   CA issued to the expected identity (--identity or
                   --identity-regexp, and --issuer)? A key or certificate
                   inside a bundle is never trusted by itself: with no
                   key, identity or policy signer given this fails in
                   one line, unless --insecure-ignore-signer (as cosign
                   names it) makes it a warning
  statement        is the signed payload an in-toto Statement v1 of an
                   attest report about the subject it names, with no key
                   given twice in any object (nor twice but for case),
                   so that every reader reads the same report?
  transparency log is it logged: inclusion proof and signed checkpoint
                   checked offline against the trusted root (a warning
                   when there is no entry)
  schema           is the report valid against the report schema?
  suite            is the suite a release this verifier knows, with its
                   catalog digest, and is every check that release runs
                   on the kind reported once? An unknown suite fails,
                   named, with the attest the report says made it
  score            recomputed from the results with the pinned catalog of
                   every check version ever shipped (axis, weight and
                   blocking come from the catalog, never the report); an
                   unknown check version fails, named
  subject digest   with --artifact, does the artifact's tree hash to the
                   signed digest?
  subject name     with --artifact, is the signed name the one the
                   artifact's manifest declares? (A name taken from the
                   publisher's directory is said to be unchecked.)
  results          with --artifact, every deterministic result re-run at
                   its version and analysis model and compared (one this
                   build cannot re-run leaves a warning); always, every
                   result no one can re-run must carry the evidence its
                   tier requires: a behavioral result the report's
                   transcript digests and ledger, a network check's pass
                   its recorded requests with response digests. Without
                   it the result is unconfirmed, and this fails
  validity         when was it signed: a signed timestamp or a log entry
                   vouches for it; otherwise only the report's own,
                   self-asserted clock says
  policy           with --policy, does it meet the consumer's policy
                   (docs/POLICY.md)? This is the install gate: a pass
                   verdict, and no blocking check waived or disabled by
                   the publisher, or left un-re-run with --artifact,
                   unless the policy names it.

With --policy, --vsa FILE --vsa-key KEY also writes a SLSA Verification
Summary v1 (its own Sigstore bundle) for the same subject: PASSED or
FAILED, the policy by digest, the report's statement by digest, so
admission tooling that reads VSAs can gate on it.

--trusted-root takes a Sigstore trusted_root.json (the public-good one,
a private deployment's, or 'attest log trusted-root' for a log attest
serves); keyless signatures, log entries and signed timestamps are
checked against it, fully offline.

Everything shown is read from the signed payload. Every signature,
certificate, log entry and timestamp is checked by sigstore-go's
verifier; attest checks the report it carries. Exit 0 when nothing
fails, 1 when an answer fails, 2 when the input cannot be read.`,
		Example: `  attest verify --key publisher.pub.pem --artifact ./downloaded-skill report.sigstore.json
  attest verify --policy install-policy.json --artifact ./downloaded-skill report.sigstore.json
  attest verify --trusted-root trusted_root.json --identity https://github.com/org/repo/.github/workflows/release.yml@refs/heads/main \
    --issuer https://token.actions.githubusercontent.com report.sigstore.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var argv []string
			for _, f := range []struct{ name, v string }{{"--key", key}, {"--identity", identity}, {"--identity-regexp", identityRE}, {"--issuer", issuer}, {"--trusted-root", trustedRoot}} {
				if f.v != "" {
					argv = append(argv, f.name, f.v)
				}
			}
			if artifact != "" {
				argv = append(argv, "--artifact", artifact)
			}
			if policyFile != "" {
				argv = append(argv, "--policy", policyFile)
			}
			if vsaOut != "" {
				argv = append(argv, "--vsa", vsaOut, "--vsa-key", vsaKey)
			}
			if require {
				argv = append(argv, "--require-signature")
			}
			if insecure {
				argv = append(argv, "--insecure-ignore-signer")
			}
			if asJSON {
				argv = append(argv, "--json")
			}
			return subFailed(a.sub(cmd.Context(), a.stdout, append(append([]string{"verify"}, argv...), args[0])...), "verification could not run")
		},
	}
	f := cmd.Flags()
	f.StringVar(&key, "key", "", "the publisher's public key (SPKI PEM, from attest keygen)")
	f.StringVar(&identity, "identity", "", "expected keyless signer: the certificate's subject (an email, a workflow URI)")
	f.StringVar(&identityRE, "identity-regexp", "", "expected keyless signer as a regular expression (matched whole)")
	f.StringVar(&issuer, "issuer", "", "the keyless signer's OIDC issuer (GitHub Actions: https://token.actions.githubusercontent.com)")
	f.StringVar(&trustedRoot, "trusted-root", "", "Sigstore trusted_root.json: CAs, logs and timestamp authorities to check against")
	f.StringVar(&artifact, "artifact", "", "the artifact (a directory) whose tree must match the signed digest")
	f.StringVar(&policyFile, "policy", "", "consumer policy file (docs/POLICY.md): trusted signers, minimum scores, checks that must pass, age, log")
	f.StringVar(&vsaOut, "vsa", "", "with --policy: also write a signed SLSA Verification Summary (PASSED/FAILED) to this file")
	f.StringVar(&vsaKey, "vsa-key", "", "with --vsa: the verifier's private key")
	f.BoolVar(&require, "require-signature", false, "fail unless the signature verifies (already so whenever a key, identity or policy signer is given)")
	f.BoolVar(&insecure, "insecure-ignore-signer", false, "with no key, identity or policy signer: check everything but who signed (the signature answer is then a warning)")
	f.BoolVar(&asJSON, "json", false, "answers as JSON")
	return cmd
}
