// Command attest evaluates an AI artifact (a skill, MCP server, agent or
// plugin), scores it on integrity, safety, care and behavior, and reports
// what it found. Run 'attest help' for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/metahub-ai/attest/behave/agent"
	"github.com/metahub-ai/attest/cmd/internal/gctune"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == agent.Command {
		// attest itself is the agent inside the sandbox: no signal
		// handling or tuning of the evaluator's.
		os.Exit(agent.Main(os.Args[2:]))
	}
	gctune.Apply()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
