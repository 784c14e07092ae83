package behave

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sandbox returns bubblewrap, failing in CI when it cannot run (.ci/run
// installs it) and skipping elsewhere.
func sandbox(t *testing.T) *Bubblewrap {
	t.Helper()
	b := &Bubblewrap{}
	if _, err := b.Version(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no sandbox in CI: %v", err)
		}
		t.Skipf("SKIPPING: %v", err)
	}
	return b
}

// artifact makes a directory the sandbox user can read, holding files.
func artifact(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var quick = Limits{Wall: 10 * time.Second, CPU: 5 * time.Second, Memory: 1 << 30, Processes: 64, FileSize: 8 << 20, Disk: 32 << 20, Output: 64 << 10}

func run(t *testing.T, b *Bubblewrap, dir string, script string) *Result {
	t.Helper()
	r, err := b.Run(context.Background(), Spec{Artifact: dir, Argv: []string{"/bin/sh", "-c", script}, Limits: quick})
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return r
}

// A benign command runs, reads the artifact and writes its work directory.
func TestSandboxRuns(t *testing.T) {
	b := sandbox(t)
	dir := artifact(t, map[string]string{"hello.txt": "hello from the artifact\n"})
	r := run(t, b, dir, "cat /artifact/hello.txt; echo made > /work/out; cat /work/out; id -u")
	if r.ExitCode != 0 || r.LimitHit != "" || !strings.Contains(string(r.Stdout), "hello from the artifact\nmade\n") {
		t.Fatalf("%+v %q %q", r, r.Stdout, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(r.Stdout)), "\n")
	if uid, _ := strconv.Atoi(lines[len(lines)-1]); os.Geteuid() == 0 && (uid < uidBase || uid >= uidBase+uidRange) {
		t.Errorf("the sandbox does not run as a user of its own: %q", r.Stdout)
	}
	if r := run(t, b, dir, "echo x > /artifact/hello.txt"); r.ExitCode == 0 {
		t.Error("the artifact is writable")
	}
}

// Hostile artifacts are contained within their limits, each recorded,
// and none keeps the test waiting past its wall-clock limit.
func TestSandboxContainsHostileArtifacts(t *testing.T) {
	b := sandbox(t)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n"), 0o600)
	dir := artifact(t, nil)
	for _, c := range []struct {
		name, script, hit string
		check             func(*Result) bool
	}{
		{"fork bomb", "b() { b | b & }; b; sleep 3", "", func(r *Result) bool {
			return r.LimitHit == HitProcesses || r.LimitHit == HitWall || r.ExitCode != 0
		}},
		{"a 10 GB write", "head -c 10737418240 /dev/zero > /work/big", HitFileSize, nil},
		{"a disk filler", "i=0; while true; do head -c 4194304 /dev/zero > /work/f$i || exit 1; i=$((i+1)); done", HitDisk, nil},
		{"a disk filler in /tmp", "i=0; while true; do head -c 4194304 /dev/zero > /tmp/f$i || break; i=$((i+1)); done; du -sb /tmp", "", func(r *Result) bool {
			var n int64
			fmt.Sscan(string(r.Stdout), &n)
			return n > quick.Disk/2 && n <= quick.Disk+64<<10 // du counts the directory entries too
		}},
		{"infinite output", "yes", HitOutput, nil},
		{"a command that never answers", "sleep 1000", HitWall, nil},
		{"reaching the network", "python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), timeout=3)'", "", func(r *Result) bool {
			return r.ExitCode != 0 && strings.Contains(string(r.Stderr), "Network is unreachable")
		}},
		{"reading ~/.ssh", "cat " + filepath.Join(home, ".ssh", "id_rsa") + " ~/.ssh/id_rsa /root/.ssh/id_rsa", "", func(r *Result) bool {
			return r.ExitCode != 0 && !strings.Contains(string(r.Stdout), "PRIVATE KEY")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := run(t, b, dir, c.script)
			if took := time.Since(start); took > quick.Wall+5*time.Second {
				t.Errorf("took %v", took)
			}
			switch {
			case c.check != nil && !c.check(r):
				t.Errorf("not contained: %+v stderr %.300q", r, r.Stderr)
			case c.hit != "" && r.LimitHit != c.hit:
				t.Errorf("limit %q, want %q (exit %d, signal %s, stderr %.200q)", r.LimitHit, c.hit, r.ExitCode, r.Signal, r.Stderr)
			}
		})
	}
}

// Without bubblewrap the error says what to install.
func TestSandboxUnavailable(t *testing.T) {
	_, err := (&Bubblewrap{Path: "/nonexistent/bwrap"}).Version(context.Background())
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("%v", err)
	}
}

// The probe runs a command in the sandbox, so a bwrap that is installed
// but cannot start one (user namespaces off) is reported as such.
func TestSandboxProbe(t *testing.T) {
	b := sandbox(t)
	v, err := b.Probe(context.Background())
	if err != nil || !strings.HasPrefix(v, "bubblewrap ") {
		t.Errorf("%q %v", v, err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	fake := filepath.Join(dir, "bwrap")
	os.WriteFile(fake, []byte("#!/bin/sh\nif [ \"$1\" = --version ]; then echo bubblewrap 9; exit 0; fi\necho 'bwrap: No permissions to creating new namespace' >&2; exit 1\n"), 0o755)
	if _, err := (&Bubblewrap{Path: fake}).Probe(context.Background()); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "cannot start a sandbox here: bwrap: No permissions") {
		t.Errorf("a bwrap that cannot start: %v", err)
	}
}

// BenchmarkSandboxRun is one command in a fresh bubblewrap sandbox, with
// and without the strace ledger.
func BenchmarkSandboxRun(b *testing.B) {
	bw := &Bubblewrap{}
	if _, err := bw.Probe(context.Background()); err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	for _, traced := range []bool{false, true} {
		b.Run(fmt.Sprintf("strace=%v", traced), func(b *testing.B) {
			for b.Loop() {
				s := Spec{Artifact: dir, Argv: []string{"/bin/sh", "-c", "ls /artifact >/dev/null"}, Limits: quick}
				if traced {
					s.Trace = filepath.Join(b.TempDir(), "trace")
				}
				if r, err := bw.Run(context.Background(), s); err != nil || r.ExitCode != 0 {
					b.Fatal(err, r)
				}
			}
		})
	}
}
