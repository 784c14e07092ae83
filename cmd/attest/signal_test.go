package main

import (
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	depsnoknownvulns "github.com/metahub-ai/attest/checks/deps-no-known-vulns"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
)

// stopBound is how long a command may take to end after SIGTERM or
// SIGINT: a bound on a hang, not a measure of speed.
const stopBound = 2 * time.Second

// blockedOnStdin starts the built binary with standard input a pipe the
// test keeps open, and returns once the process has read a first line of
// it: its signal handling, installed before anything is read, is in
// place, and it now blocks reading the rest.
func blockedOnStdin(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = r
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		w.Close()
	})
	if _, err := w.WriteString("# a comment, and no end\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(hangBound); ; time.Sleep(10 * time.Millisecond) {
		n, err := unix.IoctlGetInt(int(w.Fd()), fionread)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the process never read its standard input")
		}
	}
}

// waitExit waits at most d for the process; it returns its exit code and
// how long it took, or fails the test (and kills the process) if it is
// still running.
func waitExit(t *testing.T, cmd *exec.Cmd, from time.Time, d time.Duration) (int, time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(from)
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, took
		case errors.As(err, &ee) && ee.Exited():
			return ee.ExitCode(), took
		}
		t.Fatalf("the process did not exit by itself: %v", err)
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %s after the signal", d)
	}
	return 0, 0
}

// TestSignalEndsABlockedCommand: a command blocked in a read that no
// cancellation reaches (standard input that never ends) still ends
// within 2 s of SIGTERM or SIGINT, exit 2; a second signal ends it at
// once.
func TestSignalEndsABlockedCommand(t *testing.T) {
	bin := attesttest.Binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "run", "--from", "-")
			blockedOnStdin(t, cmd)
			at := time.Now()
			cmd.Process.Signal(sig)
			if code, took := waitExit(t, cmd, at, stopBound); code != exitError {
				t.Errorf("exit %d after %s, want 2", code, took)
			}
		})
	}
	t.Run("twice", func(t *testing.T) {
		cmd := exec.Command(bin, "run", "--from", "-")
		blockedOnStdin(t, cmd)
		at := time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
		time.Sleep(50 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		// Well under the grace the first signal gives the command.
		if code, took := waitExit(t, cmd, at, stopGrace*8/10); code != exitError {
			t.Errorf("exit %d after %s, want 2", code, took)
		}
	})
}

// TestSignalLeavesNoPartialReport: a run interrupted while a check waits
// on the network writes no report (neither the output file nor its
// temporary), and exits 2 within 2 s; a report of checks cut short by
// the interruption would be a report of nothing.
func TestSignalLeavesNoPartialReport(t *testing.T) {
	asked := make(chan struct{}, 1)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case asked <- struct{}{}:
		default:
		}
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(dir, "out")
	os.Mkdir(outDir, 0o755)
	out := filepath.Join(outDir, "report.json")
	cmd := exec.Command(attesttest.Binary(t), "run", "--net", "--kind", "mcp", "--format", "json", "-o", out, "../../checks/deps-no-known-vulns/testdata/pos/fail-mcp-npm-critical")
	cmd.Env = append(os.Environ(), "SSL_CERT_FILE="+ca, depsnoknownvulns.EnvOSVURL+"="+srv.URL)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case <-asked:
	case <-time.After(hangBound):
		t.Fatalf("the check never asked the fake OSV\n%s", stderr.String())
	}
	at := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if code, took := waitExit(t, cmd, at, stopBound); code != exitError {
		t.Errorf("exit %d after %s, want 2\n%s", code, took, stderr.String())
	}
	ents, _ := os.ReadDir(outDir)
	for _, e := range ents {
		t.Errorf("left behind: %s", e.Name())
	}
}
