package behave

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// AgentSpec says how to start the in-sandbox agent.
type AgentSpec struct {
	Artifact string
	// Agent is a host executable whose first argument "sandbox-agent" runs
	// package agent (the attest binary); it must be readable by the
	// sandbox user.
	Agent string
	// ProxyDir holds the recording proxy's socket ("" leaves the sandbox
	// with no way out at all).
	ProxyDir string
	// Canary, when set, plants decoy credentials holding it.
	Canary string
	// Trace records files and processes with strace.
	Trace  bool
	Limits Limits
	Env    []string
	// Argv, when set, is run with the sandbox's standard input and output
	// (an MCP server); otherwise the agent serves calls.
	Argv []string
	// Prepare is a shell script run first (installing dependencies), Dir
	// the command's directory; with Prepare the agent writes ReadyLine
	// before the command starts.
	Prepare, Dir string
	// ServerDir, with ServerAddr, has the agent relay connections on
	// ServerSocket (in ServerDir on the host) to ServerAddr inside the
	// sandbox: an MCP server over Streamable HTTP.
	ServerDir, ServerAddr string
}

// Spec builds the sandbox spec; trace is the host file strace writes.
func (a AgentSpec) spec(trace string) Spec {
	argv := []string{AgentPath, "sandbox-agent"}
	binds := []Bind{{Host: a.Agent, Sandbox: AgentPath}}
	env := append([]string{}, a.Env...)
	if a.ProxyDir != "" {
		argv = append(argv, "--proxy")
		binds = append(binds, Bind{Host: a.ProxyDir, Sandbox: filepath.Dir(ProxySocket)})
		proxy := "http://" + ProxyAddr
		env = append(env, "HTTP_PROXY="+proxy, "HTTPS_PROXY="+proxy, "http_proxy="+proxy, "https_proxy="+proxy, "NO_PROXY=", "no_proxy=",
			"npm_config_proxy="+proxy, "npm_config_https_proxy="+proxy)
	}
	if a.Canary != "" {
		argv = append(argv, "--canary", a.Canary)
	}
	if a.Prepare != "" {
		argv = append(argv, "--prepare", a.Prepare, "--ready")
	}
	if a.Dir != "" {
		argv = append(argv, "--dir", a.Dir)
	}
	if a.ServerDir != "" {
		argv = append(argv, "--serve", a.ServerAddr)
		binds = append(binds, Bind{Host: a.ServerDir, Sandbox: filepath.Dir(ServerSocket), Writable: true})
	}
	if len(a.Argv) == 0 {
		argv = append(argv, "--session")
	} else {
		argv = append(append(argv, "--"), a.Argv...)
	}
	return Spec{Artifact: a.Artifact, Argv: argv, Env: env, Limits: a.Limits, Binds: binds, Trace: trace}
}

// Traced is a sandboxed process whose ledger is read when it ends.
type Traced struct {
	*Process
	trace   string
	note    string
	netNote string
}

// StartAgent starts the agent in the sandbox. When tracing is asked for
// but strace is missing, the run goes on untraced and the ledger says so.
func StartAgent(ctx context.Context, sb Sandbox, a AgentSpec) (*Traced, error) {
	t := &Traced{}
	if np, ok := sb.(interface{ NoProxy() bool }); ok && np.NoProxy() {
		// No socket can be bound into a cloud VM: it runs with its
		// internet access off, and nothing is there to record.
		a.ProxyDir = ""
		t.netNote = "the " + sb.Name() + " sandbox runs with internet access off and cannot reach the recording proxy: the network ledger is empty"
	}
	if a.Trace {
		if _, err := exec.LookPath("strace"); err != nil {
			t.note = "strace is not installed: files and processes were not recorded (apt-get install -y strace)"
		} else if _, ok := sb.(*Bubblewrap); !ok {
			t.note = "the " + sb.Name() + " sandbox does not record files and processes"
		} else {
			f, err := os.CreateTemp("", "attest-trace-")
			if err != nil {
				return nil, err
			}
			f.Close()
			t.trace = f.Name()
		}
	} else {
		t.note = "files and processes were not recorded (tracing off)"
	}
	p, err := sb.Start(ctx, a.spec(t.trace))
	if err != nil {
		if t.trace != "" {
			os.Remove(t.trace)
		}
		return nil, err
	}
	t.Process = p
	return t, nil
}

// Finish waits for the process and reads its ledger of files and
// processes (the network's comes from the proxy).
func (t *Traced) Finish() (*Result, *Ledger, error) {
	res, err := t.Wait()
	l := &Ledger{Method: "none", Note: t.note, Network: []NetEvent{}, Files: []FileEvent{}, Processes: []ProcEvent{}}
	if t.trace != "" {
		defer os.Remove(t.trace)
		if f, ferr := os.Open(t.trace); ferr == nil {
			l = ParseTrace(f)
			f.Close()
		} else {
			l.Note = "the trace could not be read: " + ferr.Error()
		}
	}
	if t.netNote != "" {
		l.Note = strings.TrimPrefix(l.Note+"; "+t.netNote, "; ")
	}
	return res, l, err
}

// Session is an agent serving calls.
type Session struct {
	t   *Traced
	sc  *bufio.Scanner
	enc *json.Encoder
	mu  sync.Mutex
	id  int
}

// maxReply bounds one reply line (two capped outputs, JSON-escaped).
const maxReply = 8 << 20

// StartSession starts an agent that serves calls.
func StartSession(ctx context.Context, sb Sandbox, a AgentSpec) (*Session, error) {
	a.Argv = nil
	t, err := StartAgent(ctx, sb, a)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(t.Stdout)
	sc.Buffer(make([]byte, 64<<10), maxReply)
	s := &Session{t: t, sc: sc, enc: json.NewEncoder(t.Stdin)}
	// A first call shows the sandbox works before a model is paid to use
	// it; when it does not, bwrap's own words say why.
	if _, err := s.Call(Call{Argv: []string{"/bin/true"}, TimeoutMs: 10_000}); err != nil {
		res, _, _ := s.Close()
		if res != nil && len(res.Stderr) > 0 {
			return nil, fmt.Errorf("the sandbox did not start: %s", strings.TrimSpace(string(res.Stderr)))
		}
		return nil, fmt.Errorf("the sandbox did not start: %w", err)
	}
	return s, nil
}

// ErrSessionEnded says the sandbox is gone (a limit, a crash); Finish
// says which.
var ErrSessionEnded = errors.New("the sandbox session ended")

// Call runs one command in the session.
func (s *Session) Call(c Call) (Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.id++
	c.ID = s.id
	if err := s.enc.Encode(c); err != nil {
		return Reply{}, fmt.Errorf("%w: %v", ErrSessionEnded, err)
	}
	if !s.sc.Scan() {
		return Reply{}, ErrSessionEnded
	}
	var r Reply
	if err := json.Unmarshal(s.sc.Bytes(), &r); err != nil || r.ID != c.ID {
		return Reply{}, fmt.Errorf("the sandbox agent answered out of turn")
	}
	return r, nil
}

// Close ends the session and returns how the sandbox ended and the ledger.
func (s *Session) Close() (*Result, *Ledger, error) {
	s.t.Stdin.Close()
	return s.t.Finish()
}

// InstallAgent makes the agent executable reachable by the sandbox user (a
// test build sits in a private directory): a link or a copy in a new
// world-readable directory. The caller removes the directory.
func InstallAgent(src string) (path, dir string, err error) {
	if dir, err = os.MkdirTemp("", "attest-agent-"); err != nil {
		return "", "", err
	}
	os.Chmod(dir, 0o755)
	path = filepath.Join(dir, "agent")
	if os.Link(src, path) != nil {
		data, err := os.ReadFile(src)
		if err == nil {
			err = os.WriteFile(path, data, 0o755)
		}
		if err != nil {
			os.RemoveAll(dir)
			return "", "", err
		}
	}
	os.Chmod(path, 0o755)
	return path, dir, nil
}
