package behave

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultImage is the container image a container sandbox runs in
// (ATTEST_SANDBOX_IMAGE overrides it): it must hold the interpreters the
// artifact needs and glibc for the agent.
const DefaultImage = "docker.io/library/python:3.12-slim-bookworm"

// Container runs commands in a container: podman or docker, optionally
// under gVisor (runsc). Same limits as bubblewrap: no network
// (--network=none; the proxy's socket is bound in), a read-only root, the
// artifact read-only, tmpfs work directories of the disk limit's size, an
// unprivileged user with no capabilities, process, memory, CPU and
// file-size limits, the container removed when the run ends.
type Container struct {
	// Engine is podman or docker; Runtime "runsc" for gVisor.
	Engine, Runtime string
	// Image defaults to $ATTEST_SANDBOX_IMAGE or DefaultImage.
	Image string
}

// Name is the sandbox's name in reports.
func (c *Container) Name() string {
	if c.Runtime == "runsc" {
		return "gvisor"
	}
	return c.Engine
}

func (c *Container) image() string {
	switch {
	case c.Image != "":
		return c.Image
	case os.Getenv("ATTEST_SANDBOX_IMAGE") != "":
		return os.Getenv("ATTEST_SANDBOX_IMAGE")
	}
	return DefaultImage
}

func (c *Container) engine() (string, error) {
	p, err := exec.LookPath(c.Engine)
	if err != nil {
		return "", fmt.Errorf("%w: %s is not installed", ErrUnavailable, c.Engine)
	}
	return p, nil
}

// Version is the engine's server version (and runsc's, for gVisor).
func (c *Container) Version(ctx context.Context) (string, error) {
	eng, err := c.engine()
	if err != nil {
		return "", err
	}
	format := "{{.Server.Version}}"
	if c.Engine == "podman" {
		format = "{{.Version}}"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, eng, "version", "--format", format).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s does not answer: %s", ErrUnavailable, c.Engine, firstLine(out, err))
	}
	v := c.Engine + " " + strings.TrimSpace(string(out))
	if c.Runtime != "" {
		rv, err := exec.CommandContext(ctx, c.Runtime, "--version").Output()
		if err != nil {
			return "", fmt.Errorf("%w: gVisor (%s) is not installed; see gvisor.dev/docs/user_guide/install", ErrUnavailable, c.Runtime)
		}
		v += ", " + firstLine(rv, nil)
	}
	return v, nil
}

func firstLine(b []byte, err error) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" && err != nil {
		s = err.Error()
	}
	return s
}

// argv builds the engine's command line for s; name names the container.
func (c *Container) argv(eng, name string, s Spec, l Limits) ([]string, error) {
	if len(s.Argv) == 0 {
		return nil, errors.New("nothing to run")
	}
	artifact, err := filepath.Abs(s.Artifact)
	if err != nil {
		return nil, err
	}
	size := strconv.FormatInt(l.Disk, 10)
	argv := []string{eng, "run", "--rm", "-i", "--name", name,
		"--network=none", "--user", "65534:65534", "--read-only", "--cap-drop=ALL",
		"--security-opt=no-new-privileges", "--pids-limit", strconv.Itoa(l.Processes),
		"--memory", strconv.FormatInt(l.Memory, 10), "--cpus", "1",
		"--ulimit", "fsize=" + strconv.FormatInt(l.FileSize, 10) + ":" + strconv.FormatInt(l.FileSize, 10),
		"--ulimit", "nofile=256:256", "--ulimit", "core=0",
		"--ulimit", "cpu=" + strconv.Itoa(int(max(1, l.CPU/time.Second))) + ":" + strconv.Itoa(int(max(1, l.CPU/time.Second))),
		"--tmpfs", "/work:rw,size=" + size + ",mode=1777",
		"--tmpfs", "/tmp:rw,size=" + size + ",mode=1777",
		"--tmpfs", Home + ":rw,size=" + size + ",mode=1777",
		"-v", artifact + ":/artifact:ro", "-w", "/work",
		"-e", "HOME=" + Home, "-e", "PATH=/usr/local/bin:/usr/bin:/bin", "-e", "LANG=C.UTF-8"}
	if c.Runtime != "" {
		argv = append(argv, "--runtime="+c.Runtime)
	}
	for _, b := range s.Binds {
		if b.Writable {
			argv = append(argv, "-v", b.Host+":"+b.Sandbox)
		} else {
			argv = append(argv, "-v", b.Host+":"+b.Sandbox+":ro")
		}
	}
	for _, kv := range s.Env {
		argv = append(argv, "-e", kv)
	}
	argv = append(argv, c.image())
	return append(argv, s.Argv...), nil
}

// Run runs s in a container and waits for it, or for a limit.
func (c *Container) Run(ctx context.Context, s Spec) (*Result, error) {
	p, err := c.start(ctx, s, false)
	if err != nil {
		return nil, err
	}
	return p.Wait()
}

// Start runs s with its standard input and output connected.
func (c *Container) Start(ctx context.Context, s Spec) (*Process, error) {
	return c.start(ctx, s, true)
}

func (c *Container) start(ctx context.Context, s Spec, piped bool) (*Process, error) {
	eng, err := c.engine()
	if err != nil {
		return nil, err
	}
	l := s.Limits
	if l == (Limits{}) {
		l = DefaultLimits
	}
	var b [8]byte
	rand.Read(b[:])
	name := "attest-" + hex.EncodeToString(b[:])
	argv, err := c.argv(eng, name, s, l)
	if err != nil {
		return nil, err
	}
	// Killing the client leaves the container running: remove it by name.
	stop := func() { exec.Command(eng, "rm", "-f", name).Run() }
	return launch(ctx, argv, s, l, piped, stop)
}

// Probe runs a command in a container to show the engine, the runtime and
// the image work here.
func (c *Container) Probe(ctx context.Context) (string, error) {
	v, err := c.Version(ctx)
	if err != nil {
		return "", err
	}
	// A minute: the first run may pull the image.
	r, err := probeRun(ctx, c.Run, "true", time.Minute)
	if err != nil {
		return "", err
	}
	if r.ExitCode != 0 {
		return "", fmt.Errorf("%w: %s answers but cannot run %s: %s (pull it, or set ATTEST_SANDBOX_IMAGE)", ErrUnavailable, v, c.image(), firstLine(r.Stderr, nil))
	}
	return v, nil
}

// ErrCloud says the sandbox is a cloud service, which package behave/e2b
// provides (it needs the network client).
var ErrCloud = errors.New("the e2b sandbox is a cloud service: behave/e2b runs it (attest run --sandbox e2b, attest setup)")

// SandboxNamed returns a sandbox by its name: bubblewrap (the default),
// podman, docker or gvisor (docker with runsc).
func SandboxNamed(name string) (Sandbox, error) {
	switch name {
	case "", "bubblewrap", "bwrap":
		return &Bubblewrap{}, nil
	case "podman", "docker":
		return &Container{Engine: name}, nil
	case "gvisor", "runsc":
		return &Container{Engine: "docker", Runtime: "runsc"}, nil
	case "e2b":
		return nil, ErrCloud
	}
	return nil, fmt.Errorf("unknown sandbox %q: bubblewrap, podman, docker or gvisor", name)
}
