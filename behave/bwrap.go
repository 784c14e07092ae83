package behave

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// sandboxUID picks the user a sandbox runs as when attest runs as root (a
// process limit means nothing to root, which the kernel exempts from it):
// one of its own per run, from a range no system account uses, because
// the kernel counts the process limit per user across the machine, and a
// fork bomb in one sandbox must not starve another.
func sandboxUID() int {
	var b [4]byte
	rand.Read(b[:])
	return uidBase + int(binary.BigEndian.Uint32(b[:])%uidRange)
}

const (
	uidBase  = 0x7f000000
	uidRange = 1 << 20
)

// Bubblewrap runs commands under bubblewrap (bwrap): every namespace
// unshared (no network at all: the network ledger's proxy comes later),
// a read-only /usr, the artifact read-only at /artifact, an empty /work,
// no /home, resource limits set with prlimit, and, under root, the
// command dropped to an unprivileged user with setpriv.
type Bubblewrap struct {
	// Path is bwrap; empty finds it on PATH.
	Path string
}

// Name is the sandbox's name in reports.
func (b *Bubblewrap) Name() string { return "bubblewrap" }

func (b *Bubblewrap) tools() (bwrap, prlimit, setpriv string, err error) {
	bwrap = b.Path
	if bwrap == "" {
		if bwrap, err = exec.LookPath("bwrap"); err != nil {
			return "", "", "", fmt.Errorf("%w: bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install -y bubblewrap", ErrUnavailable)
		}
	}
	if prlimit, err = exec.LookPath("prlimit"); err != nil {
		return "", "", "", fmt.Errorf("%w: prlimit (util-linux) is not installed", ErrUnavailable)
	}
	if os.Geteuid() == 0 {
		if setpriv, err = exec.LookPath("setpriv"); err != nil {
			return "", "", "", fmt.Errorf("%w: running as root needs setpriv (util-linux) to drop to an unprivileged user", ErrUnavailable)
		}
	}
	return bwrap, prlimit, setpriv, nil
}

// Version is bwrap's.
func (b *Bubblewrap) Version(ctx context.Context) (string, error) {
	bwrap, _, _, err := b.tools()
	if err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, bwrap, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrUnavailable, bwrap, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// capped keeps at most max bytes and says when more came.
type capped struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	max  int64
	over chan struct{}
	once sync.Once
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - int64(c.buf.Len())
	if int64(len(p)) > room {
		c.buf.Write(p[:max(room, 0)])
		c.once.Do(func() { close(c.over) })
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf.Bytes())
}

// argv builds the command line that runs s.
func (b *Bubblewrap) argv(s Spec, l Limits) ([]string, error) {
	bwrap, prlimit, setpriv, err := b.tools()
	if err != nil {
		return nil, err
	}
	if len(s.Argv) == 0 {
		return nil, errors.New("nothing to run")
	}
	artifact, err := filepath.Abs(s.Artifact)
	if err != nil {
		return nil, err
	}
	var argv []string
	if s.Trace != "" {
		strace, err := exec.LookPath("strace")
		if err != nil {
			return nil, fmt.Errorf("%w: strace is not installed (the file and process ledgers need it; on Debian or Ubuntu: apt-get install -y strace)", ErrUnavailable)
		}
		// Outside the sandbox, so nothing inside can reach or rewrite the
		// log.
		argv = append(argv, strace, "-f", "-qq", "--seccomp-bpf", "--pidns-translation", "-s", "512", "-e", "signal=none",
			"-e", "trace="+traced, "-o", s.Trace)
	}
	argv = append(argv, prlimit,
		"--nproc="+strconv.Itoa(l.Processes),
		"--fsize="+strconv.FormatInt(l.FileSize, 10),
		"--cpu="+strconv.Itoa(int(max(1, l.CPU/time.Second))),
		"--as="+strconv.FormatInt(l.Memory, 10),
		"--nofile=256", "--core=0", "--")
	if setpriv != "" {
		uid := strconv.Itoa(sandboxUID())
		argv = append(argv, setpriv, "--reuid="+uid, "--regid="+uid, "--clear-groups", "--")
	}
	argv = append(argv, bwrap,
		"--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
		"--ro-bind", "/usr", "/usr")
	for _, l := range []string{"bin", "sbin", "lib", "lib64", "lib32"} {
		if t, err := os.Readlink("/" + l); err == nil {
			argv = append(argv, "--symlink", t, "/"+l)
		} else if st, err := os.Stat("/" + l); err == nil && st.IsDir() {
			argv = append(argv, "--ro-bind", "/"+l, "/"+l)
		}
	}
	for _, etc := range []string{"/etc/alternatives", "/etc/ld.so.cache", "/etc/ssl/certs"} {
		if _, err := os.Stat(etc); err == nil {
			argv = append(argv, "--ro-bind", etc, etc)
		}
	}
	// /work, /tmp and the home are tmpfs of a fixed size: the kernel
	// refuses the byte past the limit, where a watcher polling the disk let
	// 50 MB through on CI between two looks.
	size := strconv.FormatInt(l.Disk, 10)
	argv = append(argv, "--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/tmp",
		"--size", size, "--tmpfs", "/home", "--dir", Home,
		"--ro-bind", artifact, "/artifact", "--size", size, "--tmpfs", "/work", "--chdir", "/work")
	for _, bd := range s.Binds {
		if bd.Writable {
			argv = append(argv, "--bind", bd.Host, bd.Sandbox)
		} else {
			argv = append(argv, "--ro-bind", bd.Host, bd.Sandbox)
		}
	}
	env := append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + Home, "LANG=C.UTF-8"}, s.Env...)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		argv = append(argv, "--setenv", k, v)
	}
	argv = append(argv, "--")
	return append(argv, s.Argv...), nil
}

// traced are the system calls the file and process ledgers are made of.
const traced = "execve,execveat,open,openat,openat2,creat,unlink,unlinkat,rename,renameat,renameat2,connect,sendto,clone,clone3,fork,vfork"

// Run runs s under bubblewrap and waits for it, or for a limit.
func (b *Bubblewrap) Run(ctx context.Context, s Spec) (*Result, error) {
	p, err := b.start(ctx, s, false)
	if err != nil {
		return nil, err
	}
	return p.Wait()
}

// Start runs s under bubblewrap with its standard input and output
// connected to the returned process.
func (b *Bubblewrap) Start(ctx context.Context, s Spec) (*Process, error) {
	return b.start(ctx, s, true)
}

func (b *Bubblewrap) start(ctx context.Context, s Spec, piped bool) (*Process, error) {
	l := s.Limits
	if l == (Limits{}) {
		l = DefaultLimits
	}
	argv, err := b.argv(s, l)
	if err != nil {
		return nil, err
	}
	return launch(ctx, argv, s, l, piped, nil)
}

// launch starts argv, bounded by l, in its own process group; stop, when
// set, also ends what the process group does not hold (a container).
func launch(ctx context.Context, argv []string, s Spec, l Limits, piped bool, stop func()) (*Process, error) {
	var err error
	runCtx, cancel := context.WithTimeout(ctx, l.Wall)
	cmd := exec.Command(argv[0], argv[1:]...)
	// bwrap --clearenv empties the sandbox's environment; this one is
	// bwrap's own.
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	stdout := &capped{max: l.Output, over: make(chan struct{})}
	stderr := &capped{max: l.Output, over: make(chan struct{})}
	cmd.Stderr = stderr
	p := &Process{}
	if piped {
		if p.Stdin, err = cmd.StdinPipe(); err != nil {
			cancel()
			return nil, err
		}
		if p.Stdout, err = cmd.StdoutPipe(); err != nil {
			cancel()
			return nil, err
		}
	} else {
		cmd.Stdin = s.Stdin
		cmd.Stdout = stdout
	}
	cmd.SysProcAttr = sandboxProcAttr()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("starting the sandbox: %w", err)
	}
	res := &Result{}
	var hitMu sync.Mutex
	hit := func(what string) {
		hitMu.Lock()
		if res.LimitHit == "" {
			res.LimitHit = what
		}
		hitMu.Unlock()
		p.kill()
	}
	p.kill = func() {
		killGroup(cmd.Process)
		if stop != nil {
			stop()
		}
	}
	done := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		select {
		case <-done:
		case <-runCtx.Done():
			if ctx.Err() == nil {
				hit(HitWall)
			} else {
				p.kill()
			}
		case <-stdout.over:
			hit(HitOutput)
		case <-stderr.over:
			hit(HitOutput)
		}
	}()
	p.wait = func() (*Result, error) {
		defer cancel()
		waitErr := cmd.Wait()
		close(done)
		watch.Wait()
		hitMu.Lock()
		defer hitMu.Unlock()
		res.Duration = time.Since(start)
		res.Stdout, res.Stderr = stdout.bytes(), stderr.bytes()
		var ee *exec.ExitError
		switch {
		case waitErr == nil:
		case errors.As(waitErr, &ee):
			res.ExitCode = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				res.Signal = ws.Signal().String()
				res.ExitCode = 128 + int(ws.Signal())
				if hit := limitSignal(int(ws.Signal())); hit != "" {
					hitOnce(res, hit)
				}
			}
		default:
			return nil, fmt.Errorf("the sandbox: %w", waitErr)
		}
		// bwrap reports the command's death by signal as its exit status.
		if res.ExitCode > 128 {
			if hit := limitSignal(res.ExitCode - 128); hit != "" {
				hitOnce(res, hit)
			}
		}
		if bytes.Contains(res.Stderr, []byte("No space left on device")) {
			hitOnce(res, HitDisk)
		}
		if bytes.Contains(res.Stderr, []byte("fork: Resource temporarily unavailable")) || bytes.Contains(res.Stderr, []byte("Cannot fork")) {
			hitOnce(res, HitProcesses)
		}
		return res, nil
	}
	return p, nil
}

// probeRun runs one command in a fresh sandbox over an empty artifact,
// under small limits: the part of a Probe every sandbox shares.
func probeRun(ctx context.Context, run func(context.Context, Spec) (*Result, error), command string, wall time.Duration) (*Result, error) {
	dir, err := os.MkdirTemp("", "attest-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	return run(ctx, Spec{Artifact: dir, Argv: []string{command},
		Limits: Limits{Wall: wall, CPU: 5 * time.Second, Memory: 1 << 30, Processes: 16, FileSize: 1 << 20, Disk: 1 << 20, Output: 64 << 10}})
}

func hitOnce(r *Result, what string) {
	if r.LimitHit == "" {
		r.LimitHit = what
	}
}

// Probe says whether the sandbox runs here: its version after running a
// command in it, or why it cannot (not installed, user namespaces off).
func (b *Bubblewrap) Probe(ctx context.Context) (string, error) {
	v, err := b.Version(ctx)
	if err != nil {
		return "", err
	}
	r, err := probeRun(ctx, b.Run, "/bin/true", 10*time.Second)
	if err != nil {
		return "", err
	}
	if r.ExitCode != 0 {
		return "", fmt.Errorf("%w: %s is installed but cannot start a sandbox here: %s (unprivileged user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1)", ErrUnavailable, v, strings.TrimSpace(string(r.Stderr)))
	}
	return v, nil
}
