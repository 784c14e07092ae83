package behave

import (
	"bytes"
	"context"
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

// nobody is the user the sandbox runs as when attest runs as root: a
// process limit means nothing to root, which the kernel exempts from it.
const nobody = 65534

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

// Run runs s under bubblewrap and waits for it, or for a limit.
func (b *Bubblewrap) Run(ctx context.Context, s Spec) (*Result, error) {
	bwrap, prlimit, setpriv, err := b.tools()
	if err != nil {
		return nil, err
	}
	l := s.Limits
	if l == (Limits{}) {
		l = DefaultLimits
	}
	if len(s.Argv) == 0 {
		return nil, errors.New("nothing to run")
	}
	artifact, err := filepath.Abs(s.Artifact)
	if err != nil {
		return nil, err
	}
	argv := []string{prlimit,
		"--nproc=" + strconv.Itoa(l.Processes),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--cpu=" + strconv.Itoa(int(max(1, l.CPU/time.Second))),
		"--as=" + strconv.FormatInt(l.Memory, 10),
		"--nofile=256", "--core=0", "--"}
	if setpriv != "" {
		argv = append(argv, setpriv, "--reuid="+strconv.Itoa(nobody), "--regid="+strconv.Itoa(nobody), "--clear-groups", "--")
	}
	argv = append(argv, bwrap,
		"--unshare-all", "--die-with-parent", "--new-session",
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
	// /work and /tmp are tmpfs of a fixed size: the kernel refuses the byte
	// past the limit, where a watcher polling the disk let 50 MB through
	// between two looks.
	size := strconv.FormatInt(l.Disk, 10)
	argv = append(argv, "--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/tmp",
		"--ro-bind", artifact, "/artifact", "--size", size, "--tmpfs", "/work", "--chdir", "/work",
		"--setenv", "HOME", "/work", "--")
	argv = append(argv, s.Argv...)

	runCtx, cancel := context.WithTimeout(ctx, l.Wall)
	defer cancel()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/work", "LANG=C.UTF-8"}, s.Env...)
	cmd.Stdin = s.Stdin
	stdout := &capped{max: l.Output, over: make(chan struct{})}
	stderr := &capped{max: l.Output, over: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Its own process group, so everything it starts outside the sandbox's
	// namespace is killed with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
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
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	done := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		for {
			select {
			case <-done:
				return
			case <-runCtx.Done():
				if ctx.Err() == nil {
					hit(HitWall)
				} else {
					syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				}
				return
			case <-stdout.over:
				hit(HitOutput)
				return
			case <-stderr.over:
				hit(HitOutput)
				return
			}
		}
	}()
	waitErr := cmd.Wait()
	close(done)
	watch.Wait()
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
			switch ws.Signal() {
			case syscall.SIGXFSZ:
				hitOnce(res, HitFileSize)
			case syscall.SIGXCPU:
				hitOnce(res, HitCPU)
			}
		}
	default:
		return nil, fmt.Errorf("the sandbox: %w", waitErr)
	}
	// bwrap reports the command's death by signal as its exit status.
	if res.LimitHit == "" && res.ExitCode == 128+int(syscall.SIGXFSZ) {
		res.LimitHit = HitFileSize
	}
	if res.LimitHit == "" && res.ExitCode == 128+int(syscall.SIGXCPU) {
		res.LimitHit = HitCPU
	}
	if bytes.Contains(res.Stderr, []byte("No space left on device")) {
		hitOnce(res, HitDisk)
	}
	if res.LimitHit == "" && (bytes.Contains(res.Stderr, []byte("fork: Resource temporarily unavailable")) || bytes.Contains(res.Stderr, []byte("Cannot fork"))) {
		hitOnce(res, HitProcesses)
	}
	return res, nil
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
	dir, err := os.MkdirTemp("", "attest-probe-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	r, err := b.Run(ctx, Spec{Artifact: dir, Argv: []string{"/bin/true"},
		Limits: Limits{Wall: 10 * time.Second, CPU: 5 * time.Second, Memory: 1 << 30, Processes: 16, FileSize: 1 << 20, Disk: 1 << 20, Output: 64 << 10}})
	if err != nil {
		return "", err
	}
	if r.ExitCode != 0 {
		return "", fmt.Errorf("%w: %s is installed but cannot start a sandbox here: %s (unprivileged user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1)", ErrUnavailable, v, strings.TrimSpace(string(r.Stderr)))
	}
	return v, nil
}
