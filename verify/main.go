package verify

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/policy"
)

// ErrFailed is returned by Main when an answer failed (exit 1).
var ErrFailed = errors.New("verification failed")

// Main is 'attest-net verify [--key PUB] [--artifact DIR] [--require-signature]
// [--json] BUNDLE|REPORT'.
func Main(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	keyPath := fs.String("key", "", "publisher's public key (SPKI PEM)")
	artifact := fs.String("artifact", "", "the artifact, to compare its tree digest")
	require := fs.Bool("require-signature", false, "fail without a verified signature")
	asJSON := fs.Bool("json", false, "answers as JSON")
	policyPath := fs.String("policy", "", "consumer policy file (docs/POLICY.md)")
	vsaOut := fs.String("vsa", "", "with --policy: write a signed SLSA Verification Summary to this file")
	vsaKey := fs.String("vsa-key", "", "with --vsa: the verifier's private key")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: attest verify [--key PUB.pem] [--artifact DIR] [--policy FILE] [--require-signature] [--json] BUNDLE|REPORT")
	}
	opts := Options{Artifact: *artifact, RequireSignature: *require}
	if *keyPath != "" {
		k, err := keys.LoadPublic(*keyPath)
		if err != nil {
			return err
		}
		opts.Key = k
	}
	if *policyPath != "" {
		p, err := policy.ReadConsumer(*policyPath)
		if err != nil {
			return err
		}
		opts.Policy = p
		for _, s := range p.TrustedSigners {
			if !filepath.IsAbs(s) {
				s = filepath.Join(filepath.Dir(*policyPath), s)
			}
			k, err := keys.LoadPublic(s)
			if err != nil {
				return fmt.Errorf("policy signer: %w", err)
			}
			opts.Signers = append(opts.Signers, k)
		}
	}
	st, err := os.Stat(fs.Arg(0))
	if err != nil {
		return err
	}
	if st.Size() > MaxInput {
		return fmt.Errorf("%s is over %d bytes", fs.Arg(0), MaxInput)
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	if *vsaOut != "" && (*policyPath == "" || *vsaKey == "") {
		return errors.New("--vsa needs --policy (what was checked) and --vsa-key (who says so)")
	}
	r := Verify(ctx, data, opts)
	if *vsaOut != "" {
		k, err := keys.LoadPrivate(*vsaKey)
		if err != nil {
			return err
		}
		pol, _ := os.ReadFile(*policyPath)
		b, err := Summary(ctx, r, *policyPath, pol, fs.Arg(0), k, time.Now())
		if err != nil {
			return fmt.Errorf("verification summary: %w", err)
		}
		f, err := os.OpenFile(*vsaOut, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("writing the verification summary: %w", err)
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if *asJSON {
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
