// Package behave is the behavioral tier: it runs an artifact in a real
// sandbox and records what it did. This file holds the sandbox interface
// and its limits; bwrap.go the bubblewrap sandbox, the default on Linux.
package behave

import (
	"context"
	"errors"
	"io"
	"time"
)

// Limits bound one run in a sandbox. A limit reached ends the run and is
// recorded in Result.LimitHit; it is the artifact's doing, never an error
// of attest's.
type Limits struct {
	// Wall is the wall-clock time; CPU the processor time.
	Wall time.Duration `json:"wallNs"`
	CPU  time.Duration `json:"cpuNs"`
	// Memory bounds the address space of each process (RLIMIT_AS).
	Memory int64 `json:"memoryBytes"`
	// Processes bounds the processes the sandbox user may have.
	Processes int `json:"processes"`
	// FileSize bounds any one file written (RLIMIT_FSIZE).
	FileSize int64 `json:"fileSizeBytes"`
	// Disk bounds everything written under /work, /tmp and the home (each
	// a tmpfs of this size).
	Disk int64 `json:"diskBytes"`
	// Output bounds what is kept of standard output and of standard error;
	// past it the run is stopped.
	Output int64 `json:"outputBytes"`
}

// DefaultLimits are those of a behavioral run.
var DefaultLimits = Limits{
	Wall: 2 * time.Minute, CPU: time.Minute, Memory: 4 << 30, Processes: 128,
	FileSize: 64 << 20, Disk: 256 << 20, Output: 1 << 20,
}

// Spec is one command to run in a sandbox.
type Spec struct {
	// Artifact is bound read-only at /artifact.
	Artifact string
	// Argv runs with /work (empty, writable) as its directory.
	Argv []string
	// Env is the whole environment (nothing of attest's own is passed).
	Env    []string
	Stdin  io.Reader
	Limits Limits
	// Binds are further host paths bound read-only (the in-sandbox agent,
	// the proxy's socket).
	Binds []Bind
	// Trace, when set, is a host file that receives an strace log of
	// everything run in the sandbox (the file and process ledgers).
	Trace string
}

// Bind is one host path bound into the sandbox, read-only unless Writable
// (a directory where the agent makes a socket for the host).
type Bind struct {
	Host, Sandbox string
	Writable      bool
}

// Home is the sandbox user's home: an empty tmpfs, apart from the decoys
// the agent plants.
const Home = "/home/user"

// Limits reached, as Result.LimitHit says them.
const (
	HitWall      = "wall-clock time"
	HitCPU       = "cpu time"
	HitOutput    = "output"
	HitDisk      = "disk"
	HitFileSize  = "file size"
	HitProcesses = "processes"
)

// Result is how a run ended.
type Result struct {
	ExitCode int    `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
	// LimitHit names the limit that ended the run, if one did.
	LimitHit string        `json:"limitHit,omitempty"`
	Stdout   []byte        `json:"-"`
	Stderr   []byte        `json:"-"`
	Duration time.Duration `json:"durationNs"`
}

// Sandbox runs commands isolated from the host: no network, nothing of the
// host's files but a read-only system and the artifact, bounded.
type Sandbox interface {
	Name() string
	// Version says which implementation ran, for the report.
	Version(ctx context.Context) (string, error)
	Run(ctx context.Context, s Spec) (*Result, error)
	// Start runs s with its standard input and output connected to the
	// returned process (a session, an MCP server over stdio).
	Start(ctx context.Context, s Spec) (*Process, error)
	// Probe runs a command in the sandbox: its version, or why it cannot
	// run here.
	Probe(ctx context.Context) (string, error)
}

// Process is a sandboxed command started with Start.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	wait   func() (*Result, error)
	kill   func()
}

// NewProcess assembles a Process for a sandbox implemented elsewhere (a
// cloud sandbox): its input and output, how to wait and how to kill.
func NewProcess(stdin io.WriteCloser, stdout io.ReadCloser, wait func() (*Result, error), kill func()) *Process {
	return &Process{Stdin: stdin, Stdout: stdout, wait: wait, kill: kill}
}

// Wait waits for the process and says how it ended.
func (p *Process) Wait() (*Result, error) { return p.wait() }

// Kill ends the process and everything it started.
func (p *Process) Kill() { p.kill() }

// ErrUnavailable says a sandbox cannot run here; the message says why and
// what to install.
var ErrUnavailable = errors.New("not available")
