package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/cmd/attest/attesttest"
)

// networkCall is a line of strace -e trace=%network naming a call.
var networkCall = regexp.MustCompile(`\b(socket|socketpair|connect|bind|listen|accept4?|send(to|msg|mmsg)?|recv(from|msg|mmsg)?|getsockopt|setsockopt|getsockname|getpeername|shutdown)\(|<\.\.\. [a-z0-9]+ resumed>`)

// networkCalls runs the attest binary under strace and returns the network
// system calls of the whole process tree.
func networkCalls(t *testing.T, args ...string) []string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("strace is not installed in CI")
		}
		t.Skip("SKIPPING: strace is not installed (apt-get install -y strace)")
	}
	log := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, append([]string{"-f", "-qq", "-e", "trace=%network", "-e", "signal=none", "-o", log, attesttest.Binary(t)}, args...)...)
	cmd.Run() // the exit code is the command's; the trace is what is judged
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("no trace: %v", err)
	}
	var calls []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		// A network call, or its resumption; strace's own notes about
		// threads it lost track of ("???( <detached ...>") are not calls.
		if networkCall.MatchString(l) {
			calls = append(calls, l)
		}
	}
	return calls
}

// TestStaticRunMakesNoNetworkCall holds "offline by default" in the one
// binary that links every network client: a static run of an MCP server
// with dependencies, in every output format, makes no network system call
// at all, while a remote target (the control) does.
func TestStaticRunMakesNoNetworkCall(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif"} {
		if calls := networkCalls(t, "run", "--format", format, samples+"/weather-ts"); len(calls) > 0 {
			t.Errorf("a static run (%s) made network calls:\n%s", format, strings.Join(calls, "\n"))
		}
	}
	if calls := networkCalls(t, "run", "http://127.0.0.1:1/x.git"); !strings.Contains(strings.Join(calls, "\n"), "connect(") {
		t.Errorf("the control, a remote target, made no connect call: is the trace blind?\n%s", strings.Join(calls, "\n"))
	}
}
