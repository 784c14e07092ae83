package verify

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
)

// ErrFailed is returned by Main when an answer failed (exit 1).
var ErrFailed = errors.New("verification failed")

// MaxTrustedRoot bounds a trusted_root.json.
const MaxTrustedRoot = 4 << 20

const usageLine = "usage: attest verify (--key PUB.pem | --identity SUBJECT --issuer URL | --policy FILE | --insecure-ignore-signer) [--trusted-root FILE] [--artifact DIR] [--json] BUNDLE|REPORT"

// Main is 'attest verify': ErrFailed when an answer failed, another
// error when the input or the options cannot be used.
func Main(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	keyPath := fs.String("key", "", "publisher's public key (SPKI PEM)")
	identity := fs.String("identity", "", "expected keyless signer: the certificate's subject (email or URI)")
	identityRE := fs.String("identity-regexp", "", "expected keyless signer, as a regular expression")
	issuer := fs.String("issuer", "", "expected OIDC issuer of the keyless signer")
	rootPath := fs.String("trusted-root", "", "Sigstore trusted_root.json")
	artifact := fs.String("artifact", "", "the artifact, to compare its tree digest")
	require := fs.Bool("require-signature", false, "fail without a verified signature (the default whenever a signer is trusted)")
	insecure := fs.Bool("insecure-ignore-signer", false, "check everything but who signed, when no key, identity or policy signer is given")
	asJSON := fs.Bool("json", false, "answers as JSON")
	withReport := fs.Bool("with-report", false, "with --json: include the signed report")
	policyPath := fs.String("policy", "", "consumer policy file (docs/POLICY.md)")
	vsaOut := fs.String("vsa", "", "with --policy: write a signed SLSA Verification Summary to this file")
	vsaKey := fs.String("vsa-key", "", "with --vsa: the verifier's private key")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w\n%s", err, usageLine)
	}
	if fs.NArg() != 1 {
		return errors.New(usageLine)
	}
	Warm()
	if *insecure && *require {
		return errors.New("--insecure-ignore-signer and --require-signature contradict each other")
	}
	opts := Options{Artifact: *artifact, RequireSignature: *require, InsecureIgnoreSigner: *insecure}
	if *identity != "" || *identityRE != "" || *issuer != "" {
		id := policy.Identity{Subject: *identity, SubjectRegexp: *identityRE, Issuer: *issuer}
		if err := id.Check(); err != nil {
			return fmt.Errorf("--identity/--identity-regexp/--issuer: %w", err)
		}
		opts.Identities = []policy.Identity{id}
	}
	if *keyPath != "" {
		k, err := keys.LoadPublic(*keyPath)
		if err != nil {
			return err
		}
		opts.Keys = []crypto.PublicKey{k}
	}
	if *rootPath != "" {
		b, err := resolve.ReadFileMax(*rootPath, MaxTrustedRoot)
		if err != nil {
			return fmt.Errorf("--trusted-root: %w", err)
		}
		opts.TrustedRoot = b
	}
	var pol []byte
	if *policyPath != "" {
		if err := opts.ApplyPolicy(*policyPath); err != nil {
			return err
		}
		pol, _ = resolve.ReadFileMax(*policyPath, policy.MaxPolicyBytes)
	}
	if *vsaOut != "" && (*policyPath == "" || *vsaKey == "") {
		return errors.New("--vsa needs --policy (what was checked) and --vsa-key (who says so)")
	}
	if len(opts.TrustedRoot) > 0 {
		tr, err := root.NewTrustedRootFromJSON(opts.TrustedRoot)
		if err != nil {
			return fmt.Errorf("the trusted root is not a Sigstore trusted_root.json: %w", err)
		}
		opts.trustedRoot = tr
	}
	if *insecure && opts.hasSigner() {
		return errors.New("--insecure-ignore-signer with a signer given: drop one of them")
	}
	var signer StatementSigner
	if *vsaOut != "" {
		var err error
		if signer, err = KeySigner(*vsaKey); err != nil {
			return fmt.Errorf("--vsa-key: %w", err)
		}
	}
	data, err := resolve.ReadFileMax(fs.Arg(0), MaxInput)
	if err != nil {
		return err
	}
	r := verifyInput(ctx, readInput(data), opts)
	if *vsaOut != "" {
		b, err := Summary(ctx, r, FileURI(*policyPath), pol, FileURI(fs.Arg(0)), signer, time.Now())
		if err != nil {
			return fmt.Errorf("verification summary: %w", err)
		}
		f, done, err := resolve.CreateNew(*vsaOut, 0o644)
		if err != nil {
			return fmt.Errorf("writing the verification summary: %w", err)
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(*vsaOut)
		}
		done()
		if err != nil {
			return err
		}
	}
	if *asJSON {
		if *withReport {
			r.Report = r.report
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		for _, a := range r.Answers {
			fmt.Fprintf(w, "%-4s  %-16s %s\n", a.Status, a.Name, a.Reason)
		}
	}
	if r.Failed {
		return ErrFailed
	}
	return nil
}

// ApplyPolicy reads a consumer policy file into the options: the policy
// itself, and what it trusts (signers, identities, trusted root; paths
// relative to the file) wherever the options name nothing already, since
// an explicit key, identity or root stands in for the policy's.
func (opts *Options) ApplyPolicy(path string) error {
	p, err := policy.ReadConsumer(path)
	if err != nil {
		return err
	}
	opts.Policy = p
	rel := func(s string) string {
		if filepath.IsAbs(s) {
			return s
		}
		return filepath.Join(filepath.Dir(path), s)
	}
	if opts.Keys == nil {
		for _, s := range p.TrustedSigners {
			k, err := keys.LoadPublic(rel(s))
			if err != nil {
				return fmt.Errorf("policy signer: %w", err)
			}
			opts.Keys = append(opts.Keys, k)
		}
	}
	if opts.Identities == nil {
		opts.Identities = p.TrustedIdentities
	}
	if opts.TrustedRoot == nil && p.TrustedRoot != "" {
		b, err := resolve.ReadFileMax(rel(p.TrustedRoot), MaxTrustedRoot)
		if err != nil {
			return fmt.Errorf("policy trustedRoot: %w", err)
		}
		opts.TrustedRoot = b
	}
	return nil
}
