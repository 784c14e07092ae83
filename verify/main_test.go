package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/attest/keys"
)

// TestMainCommand runs the command as attest verify does: its flags, the
// background preparation it starts before reading the input (Warm), the
// answers it prints and the error that makes its exit status.
func TestMainCommand(t *testing.T) {
	dir := t.TempDir()
	k, err := keys.Generate(keys.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Write(filepath.Join(dir, "pub"), k); err != nil {
		t.Fatal(err)
	}
	other, _ := keys.Generate(keys.Ed25519)
	if _, err := keys.Write(filepath.Join(dir, "other"), other); err != nil {
		t.Fatal(err)
	}
	bundlePath := filepath.Join(dir, "report.sigstore.json")
	if err := os.WriteFile(bundlePath, signed(t, readReport(t), k), 0o644); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	err = Main(context.Background(), []string{"--key", filepath.Join(dir, "pub.pub.pem"), "--artifact", sample, "--json", bundlePath}, &out)
	if err != nil {
		t.Fatalf("Main: %v\n%s", err, out.String())
	}
	var r Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out.String())
	}
	got := answers(&r)
	for _, name := range []string{"signature", "statement", "schema", "suite", "score", "subject digest", "results"} {
		if got[name].Status != OK {
			t.Errorf("%s: %s %s", name, got[name].Status, got[name].Reason)
		}
	}

	out.Reset()
	err = Main(context.Background(), []string{"--key", filepath.Join(dir, "other.pub.pem"), bundlePath}, &out)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("another key: err %v, want ErrFailed\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "fail  signature") {
		t.Errorf("another key: no failed signature answer in\n%s", out.String())
	}

	// Nobody trusted: exit 1 and one line saying so, unless the caller
	// chose to ignore the signer.
	out.Reset()
	err = Main(context.Background(), []string{"--artifact", sample, bundlePath}, &out)
	if !errors.Is(err, ErrFailed) || !strings.Contains(out.String(), "fail  signature        no trusted signer given") {
		t.Errorf("no signer: err %v\n%s", err, out.String())
	}
	out.Reset()
	if err := Main(context.Background(), []string{"--insecure-ignore-signer", "--artifact", sample, bundlePath}, &out); err != nil || !strings.Contains(out.String(), "warn  signature") {
		t.Errorf("--insecure-ignore-signer: err %v\n%s", err, out.String())
	}
	if err := Main(context.Background(), []string{"--insecure-ignore-signer", "--key", filepath.Join(dir, "pub.pub.pem"), bundlePath}, &out); err == nil || errors.Is(err, ErrFailed) {
		t.Errorf("--insecure-ignore-signer with a key: err %v, want a usage error", err)
	}

	if err := Main(context.Background(), nil, &out); err == nil || !strings.Contains(err.Error(), "usage:") {
		t.Errorf("no input: err %v, want the usage line", err)
	}
	if err := Main(context.Background(), []string{filepath.Join(dir, "missing.json")}, &out); err == nil || errors.Is(err, ErrFailed) {
		t.Errorf("missing input: err %v, want a read error (exit 2), not a failed answer", err)
	}
}
