package e2b_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/e2b"
	"github.com/metahub-ai/attest/behave/e2b/e2btest"
)

// needsBwrap: the fake's "VMs" run under bubblewrap, which CI installs.
func needsBwrap(t *testing.T) {
	t.Helper()
	if _, err := (&behave.Bubblewrap{}).Probe(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("SKIPPING: %v", err)
	}
}

func artifact(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "a")
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from the artifact\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin", "run.sh"), []byte("#!/bin/sh\necho ran\n"), 0o755)
	return dir
}

var limits = behave.Limits{Wall: 30 * time.Second, CPU: 10 * time.Second, Memory: 1 << 30, Processes: 64, FileSize: 1 << 20, Disk: 1 << 20, Output: 64 << 10}

// A command runs in a fresh VM with the artifact uploaded (its exec bits
// kept), its standard input delivered, and the VM deleted after.
func TestRun(t *testing.T) {
	needsBwrap(t)
	f := e2btest.Start(t, "e2b-key")
	s := &e2b.Sandbox{Key: "e2b-key", API: f.URL, SandboxURL: f.URL, Template: "base"}
	r, err := s.Run(context.Background(), behave.Spec{Artifact: artifact(t), Stdin: strings.NewReader("from stdin\n"), Limits: limits,
		Argv: []string{"/bin/sh", "-c", "cat /artifact/hello.txt; /artifact/bin/run.sh; cat; pwd; exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode != 3 || string(r.Stdout) != "hello from the artifact\nran\nfrom stdin\n/work\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.ExitCode, r.Stdout, r.Stderr)
	}
	if f.Created != 1 || f.Deleted != 1 {
		t.Fatalf("created %d deleted %d", f.Created, f.Deleted)
	}
}

// A refused key, or no key, is the sandbox being unavailable, said plainly.
func TestUnavailable(t *testing.T) {
	f := e2btest.Start(t, "e2b-key")
	s := &e2b.Sandbox{Key: "wrong", API: f.URL, SandboxURL: f.URL, Template: "base"}
	if _, err := s.Probe(context.Background()); !errors.Is(err, behave.ErrUnavailable) || !strings.Contains(err.Error(), "refused the API key") {
		t.Fatalf("%v", err)
	}
	s.Key = ""
	if _, err := s.Probe(context.Background()); !errors.Is(err, behave.ErrUnavailable) || !strings.Contains(err.Error(), "E2B_API_KEY") {
		t.Fatalf("%v", err)
	}
}

// The wall clock ends a command that never returns, and the VM is deleted.
func TestWall(t *testing.T) {
	needsBwrap(t)
	f := e2btest.Start(t, "k")
	s := &e2b.Sandbox{Key: "k", API: f.URL, SandboxURL: f.URL, Template: "base"}
	l := limits
	l.Wall = 2 * time.Second
	r, err := s.Run(context.Background(), behave.Spec{Artifact: artifact(t), Limits: l, Argv: []string{"sleep", "600"}})
	if err != nil || r.LimitHit != behave.HitWall {
		t.Fatalf("%+v %v", r, err)
	}
	if f.Deleted != 1 {
		t.Fatal("the VM was left running")
	}
}
