// Package agent is the process attest starts inside the sandbox. It plants
// decoy credentials in the home directory, forwards 127.0.0.1:3128 to the
// host's recording proxy over a Unix socket bound into the sandbox, and
// then either runs one command with its standard input and output (an MCP
// server over stdio) or serves calls as JSON lines (a skill's tool calls),
// so that state in /work lasts from one call to the next.
//
// It is attest's own code; nothing of the artifact runs in it. The
// process makes itself non-dumpable so that the artifact, which runs as
// the same user, cannot reach its file descriptors through /proc and
// forge replies.
package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks/vocab"
)

// maxCall bounds one call line from the host.
const maxCall = 16 << 20

// Command is the first argument that makes the attest binary the agent
// (behave.AgentSpec starts it so inside the sandbox).
const Command = "sandbox-agent"

// Main runs the agent with its command-line arguments and returns its exit
// code.
func Main(args []string) int {
	fs := flag.NewFlagSet(Command, flag.ContinueOnError)
	canary := fs.String("canary", "", "plant decoy credentials holding this token")
	proxy := fs.Bool("proxy", false, "forward "+behave.ProxyAddr+" to the recording proxy")
	session := fs.Bool("session", false, "serve calls as JSON lines")
	prepare := fs.String("prepare", "", "a shell script run in /work first (installing dependencies); its output goes to stderr")
	dir := fs.String("dir", "/work", "the command's working directory")
	ready := fs.Bool("ready", false, "write the ready line to stdout once prepared, before the command starts")
	serveAddr := fs.String("serve", "", "relay connections on the server socket to this address (an MCP server over Streamable HTTP)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	undumpable()
	if *canary != "" {
		if err := PlantDecoys(os.Getenv("HOME"), *canary); err != nil {
			fmt.Fprintln(os.Stderr, "agent: decoys:", err)
			return 2
		}
	}
	if *proxy {
		if err := forward(behave.ProxyAddr, behave.ProxySocket); err != nil {
			fmt.Fprintln(os.Stderr, "agent: proxy:", err)
			return 2
		}
	}
	if *prepare != "" {
		c := exec.Command("/bin/sh", "-c", *prepare, behave.PrepareName)
		c.Dir, c.Stdout, c.Stderr = "/work", os.Stderr, os.Stderr
		if err := c.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "agent: preparing failed:", err)
			return 3
		}
	}
	if *ready {
		os.Stdout.WriteString(behave.ReadyLine)
	}
	if *serveAddr != "" {
		if err := relay(behave.ServerSocket, *serveAddr); err != nil {
			fmt.Fprintln(os.Stderr, "agent: server socket:", err)
			return 2
		}
	}
	if *session {
		serve(os.Stdin, os.Stdout)
		return 0
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "agent: nothing to run")
		return 2
	}
	c := command(fs.Args())
	c.Dir = *dir
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "agent:", err)
		return 127
	}
	return 0
}

// PlantDecoys writes the vocabulary's decoy credential files (vocab.Decoys)
// under home; each holds the run's canary token, so a read shows in the
// file ledger and a leak in the network ledger.
func PlantDecoys(home, canary string) error {
	for _, d := range vocab.Decoys() {
		p := filepath.Join(home, filepath.FromSlash(d.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(d.Content, "%s", canary)), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// forward relays connections on addr to the Unix socket sock.
func forward(addr, sock string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	go accept(l, "unix", sock)
	return nil
}

// accept relays each connection l accepts to a new connection to addr.
func accept(l net.Listener, network, addr string) {
	for {
		in, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer in.Close()
			out, err := net.Dial(network, addr)
			if err != nil {
				return
			}
			defer out.Close()
			go func() {
				io.Copy(out, in)
				if cw, ok := out.(interface{ CloseWrite() error }); ok {
					cw.CloseWrite()
				}
			}()
			io.Copy(in, out)
		}()
	}
}

// serve answers calls read from in until it closes.
func serve(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxCall)
	enc := json.NewEncoder(out)
	var mu sync.Mutex
	for sc.Scan() {
		var c behave.Call
		var r behave.Reply
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			r.Error = "a call that is not JSON: " + err.Error()
		} else {
			r = run(c)
		}
		mu.Lock()
		enc.Encode(r)
		mu.Unlock()
	}
}

// bounded keeps the first max bytes written; past them it stops the
// command (endless output is a limit reached, not something to wait out).
type bounded struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	max    int
	over   bool
	onOver func()
}

func (b *bounded) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		if !b.over && b.onOver != nil {
			go b.onOver()
		}
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// run runs one call in its own process group.
func run(c behave.Call) behave.Reply {
	r := behave.Reply{ID: c.ID}
	if len(c.Argv) == 0 {
		r.Error = "nothing to run"
		return r
	}
	if c.TimeoutMs <= 0 {
		c.TimeoutMs = 30_000
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = 64 << 10
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(c.TimeoutMs)*time.Millisecond)
	defer cancel()
	cmd := command(c.Argv)
	cmd.Dir = "/work"
	cmd.Stdin = bytes.NewReader([]byte(c.Stdin))
	stdout, stderr := &bounded{max: c.MaxOutput}, &bounded{max: c.MaxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = groupAttr()
	// A child left holding the output open does not hold the reply.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		r.Error = err.Error()
		r.ExitCode = 127
		return r
	}
	stop := func() { killGroup(cmd.Process) }
	stdout.onOver, stderr.onOver = stop, stop
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd.Process)
		r.TimedOut = true
		err = <-done
	}
	// Whatever the command left running is stopped with it.
	killGroup(cmd.Process)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.ExitCode = 128 + int(ws.Signal())
		}
	}
	r.Stdout, r.Stderr = stdout.buf.String(), stderr.buf.String()
	r.Truncated = stdout.over || stderr.over
	return r
}

// relay accepts connections on the Unix socket sock and relays each to the
// TCP address addr, where the server listens inside the sandbox.
func relay(sock, addr string) error {
	l, err := net.Listen("unix", sock)
	if err != nil {
		return err
	}
	os.Chmod(sock, 0o777)
	go accept(l, "tcp", addr)
	return nil
}
