package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Version is the tool version written into reports. The release build
// sets it at link time (-ldflags "-X main.Version=…"); nothing assigns it
// at run time.
var Version = "0.1.0"

// app is one invocation's I/O and environment; nothing else in the command
// touches os.Stdout, os.Getenv or the process exit.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runApp(ctx, &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}, args)
}

func runApp(ctx context.Context, a *app, args []string) int {
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errSilentFail) {
		return exitFail
	}
	if errors.Is(err, errSilentInsufficient) {
		return exitError
	}
	var ce *codeError
	if errors.As(err, &ce) {
		fmt.Fprintf(a.stderr, "attest: %v\n", ce.err)
		return ce.code
	}
	// Anything else is a usage error from flag or argument parsing.
	fmt.Fprintf(a.stderr, "attest: %v\nRun 'attest --help' for usage.\n", err)
	return exitError
}

// commands is the command table.
func commands(a *app) []*cobra.Command {
	return []*cobra.Command{
		newRunCmd(a),
		newSetupCmd(a),
		newReplayCmd(a),
		newLockCmd(a),
		newRegistryCmd(a),
		newLogCmd(a),
		newDiffCmd(a),
		newRenderCmd(a),
		newMCPCmd(a),
		newScanCmd(a),
		newKeygenCmd(a),
		newSignCmd(a),
		newVerifyCmd(a),
		newListCmd(a),
		newExplainCmd(a),
		newDoctorCmd(a),
		newVersionCmd(a),
	}
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "attest",
		Short: "Evaluate what an AI skill, MCP server, agent or plugin actually does",
		Long: `attest reads what is inside an AI artifact (a skill, an MCP server, an
agent or a plugin), runs its checks, scores it on four axes (integrity,
safety, care, behavior) and reports what it found, with evidence.

Evaluation is offline by default: nothing is fetched, nothing from the
artifact is executed.

Exit codes:
` + exitCodesHelp(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetVersionTemplate("attest {{.Version}}\n")
	root.AddCommand(commands(a)...)
	return root
}

// terminal reports whether w is a terminal.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorOn decides colour for --color: always, never, or auto (the
// default: only on a terminal, never under NO_COLOR or TERM=dumb).
func (a *app) colorOn(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if a.getenv("NO_COLOR") != "" || a.getenv("TERM") == "dumb" {
			return false, nil
		}
		return terminal(w), nil
	}
	return false, withCode(exitError, fmt.Errorf("--color %q: want auto, always or never", mode))
}

func (a *app) ascii() bool { return a.getenv("ATTEST_ASCII") == "1" }
