// Command attest evaluates an AI artifact (a skill, MCP server, agent or
// plugin), scores it on integrity, safety, care and behavior, and reports
// what it found. Run 'attest help' for the commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/metahub-ai/attest/behave/agent"
	"github.com/metahub-ai/attest/cmd/internal/gctune"
	"github.com/metahub-ai/attest/resolve"
)

// stopGrace is how long a command has, after SIGTERM or SIGINT, to stop
// by itself once its context is cancelled; then the process exits
// anyway, so that a command blocked where no cancellation reaches (a read
// of a pipe that never ends) still ends within 2 s. A second signal ends
// it at once.
const stopGrace = time.Second

// servers stop on a signal as their normal end: exit 0 when they stopped
// cleanly within the grace.
var servers = []string{"log serve", "mcp serve", "registry serve"}

func main() {
	if len(os.Args) > 1 && os.Args[1] == agent.Command {
		// attest itself is the agent inside the sandbox: no signal
		// handling or tuning of the evaluator's.
		os.Exit(agent.Main(os.Args[2:]))
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	gctune.Apply()
	ctx, cancel := context.WithCancel(context.Background())
	var stopped atomic.Bool
	go func() {
		<-sigs
		stopped.Store(true)
		cancel()
		select {
		case <-sigs:
		case <-time.After(stopGrace):
		}
		resolve.RemovePartial()
		fmt.Fprintln(os.Stderr, "attest: stopped by a signal")
		os.Exit(exitError)
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if stopped.Load() && code == exitOK && !isServer(os.Args[1:]) {
		// Interrupted, yet it returned as if done: no command's success
		// is to be trusted after a cancellation.
		resolve.RemovePartial()
		fmt.Fprintln(os.Stderr, "attest: stopped by a signal")
		code = exitError
	}
	os.Exit(code)
}

// isServer: the command line runs one of the servers.
func isServer(args []string) bool {
	var words []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	line := strings.Join(words, " ")
	for _, s := range servers {
		if line == s || strings.HasPrefix(line, s+" ") {
			return true
		}
	}
	return false
}
