package sign

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/metahub-ai/attest/attest/keys"
)

// Main is 'attest-net sign --key KEY [--out FILE] REPORT': it signs a saved
// report and writes the bundle to FILE (default REPORT with .json replaced
// by .sigstore.json), never over an existing file.
func Main(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("sign", flag.ContinueOnError)
	keyPath := fs.String("key", "", "PKCS#8 private key (attest keygen)")
	out := fs.String("out", "", "bundle file to write")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *keyPath == "" {
		return errors.New("usage: attest sign --key KEY.pem [--out FILE] REPORT.json")
	}
	in := fs.Arg(0)
	st, err := os.Stat(in)
	if err != nil {
		return err
	}
	if st.Size() > MaxReportBytes {
		return fmt.Errorf("%s is over %d bytes", in, MaxReportBytes)
	}
	report, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	key, err := keys.LoadPrivate(*keyPath)
	if err != nil {
		return err
	}
	b, err := Bundle(ctx, report, key)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	dst := *out
	if dst == "" {
		dst = strings.TrimSuffix(in, ".json") + ".sigstore.json"
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("writing the bundle: %w (attest never overwrites a bundle; pass --out)", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(dst)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	id, _ := keys.ID(key.Public())
	fmt.Fprintf(w, "wrote %s (signed by keyid %s)\n", dst, id)
	return nil
}
