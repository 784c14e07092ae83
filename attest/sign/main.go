package sign

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/resolve"
)

// Main is 'attest sign (--key KEY | --keyless) [--log URL]
// [--signing-config FILE] [--out FILE] REPORT': it signs a saved report and
// writes the bundle to FILE (default REPORT with .json replaced by
// .sigstore.json), never over an existing file.
func Main(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("sign", flag.ContinueOnError)
	keyPath := fs.String("key", "", "PKCS#8 private key (attest keygen)")
	keyless := fs.Bool("keyless", false, "sign with a short-lived certificate for your OIDC identity")
	configPath := fs.String("signing-config", "", "Sigstore signing_config.json: certificate authority, timestamp authorities, logs")
	logURL := fs.String("log", "", "Rekor v2 log to record the signature in")
	out := fs.String("out", "", "bundle file to write")
	checksums := fs.Bool("checksums", false, "the input is a release's checksums.txt: sign an in-toto release attestation of every file it lists")
	purl := fs.String("purl", "", "with --checksums: the release's package URL (pkg:github/OWNER/REPO@VERSION)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *checksums {
		return signChecksums(ctx, fs.Args(), *keyPath, *purl, *out, w)
	}
	if fs.NArg() != 1 || (*keyPath == "") == !*keyless {
		return errors.New("usage: attest sign (--key KEY.pem | --keyless) [--log URL] [--signing-config FILE] [--out FILE] REPORT.json")
	}
	in := fs.Arg(0)
	report, err := resolve.ReadFileMax(in, MaxReportBytes)
	if err != nil {
		return err
	}
	s := Signing{Log: *logURL}
	if *configPath != "" {
		if s.Config, err = ReadSigningConfig(*configPath); err != nil {
			return err
		}
	}
	if *keyless {
		if s.Config == nil {
			s.Config = PublicGood()
		}
		s.IDToken, err = IDToken(ctx, TokenOptions{Issuer: OIDCIssuer(s.Config), Interactive: isTerminal(os.Stdin), Output: os.Stderr})
		if err != nil {
			return err
		}
	} else if s.Key, err = keys.LoadPrivate(*keyPath); err != nil {
		return err
	}
	dst := *out
	if dst == "" {
		dst = strings.TrimSuffix(in, ".json") + ".sigstore.json"
	}
	// Refuse before the services are asked: a keyless signature spends a
	// certificate and a log entry.
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%s exists (attest never overwrites a bundle; pass --out)", dst)
	}
	b, err := SignReport(ctx, report, s)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := writeNew(dst, b); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%s)\n", dst, describe(s, b))
	return nil
}

// describe says who signed and where it was logged, for the summary line.
func describe(s Signing, bundleJSON []byte) string {
	var who string
	if s.Key != nil {
		id, _ := keys.ID(s.Key.Public())
		who = "signed by keyid " + id
	} else {
		who = "signed keyless"
	}
	var b struct {
		VerificationMaterial struct {
			TlogEntries []struct {
				LogIndex string `json:"logIndex"`
			} `json:"tlogEntries"`
		} `json:"verificationMaterial"`
	}
	if json.Unmarshal(bundleJSON, &b) == nil {
		for _, e := range b.VerificationMaterial.TlogEntries {
			if e.LogIndex == "" {
				e.LogIndex = "0" // protojson leaves out a zero
			}
			who += ", logged at index " + e.LogIndex
		}
	}
	return who
}

// isTerminal is true for a terminal (not /dev/null, also a character
// device).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// signChecksums is 'attest sign --checksums --key KEY --purl PURL --out
// FILE checksums.txt': the release attestation, for the release build.
func signChecksums(ctx context.Context, args []string, keyPath, purl, out string, w io.Writer) error {
	if len(args) != 1 || keyPath == "" || purl == "" || out == "" {
		return errors.New("usage: attest sign --checksums --key KEY.pem --purl pkg:github/OWNER/REPO@VERSION --out FILE checksums.txt")
	}
	data, err := resolve.ReadFileMax(args[0], MaxChecksumsBytes)
	if err != nil {
		return err
	}
	key, err := keys.LoadPrivate(keyPath)
	if err != nil {
		return err
	}
	b, err := ReleaseBundle(ctx, data, purl, key)
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	if err := writeNew(out, b); err != nil {
		return err
	}
	id, _ := keys.ID(key.Public())
	fmt.Fprintf(w, "wrote %s (release attestation of %s, signed by keyid %s)\n", out, args[0], id)
	return nil
}

// writeNew writes a file that must not exist yet.
func writeNew(dst string, b []byte) error {
	f, done, err := resolve.CreateNew(dst, 0o644)
	if err != nil {
		return fmt.Errorf("writing the bundle: %w (attest never overwrites a bundle; pass --out)", err)
	}
	defer done()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(dst)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(dst)
		return err
	}
	return nil
}
