package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/policy"
)

// Exit codes, from one table (ARCHITECTURE §3.7).
const (
	exitOK    = 0
	exitFail  = 1
	exitError = 2
)

type exitCode struct {
	Code    int
	Name    string
	Meaning string
}

var exitCodes = []exitCode{
	{exitOK, "ok", "the verdict is pass: no blocking check failed and any minimum score was met"},
	{exitFail, "fail", "a blocking check failed, a minimum score was set and the verdict is not pass (no overall score is below any minimum), the MCP surface drifted from its lock file in a way that needs review, or a verification answer failed"},
	{exitError, "error", "the run could not complete or could not judge: bad usage, a missing or unreadable input, an artifact attest cannot evaluate as given, an infrastructure failure, or the verdict insufficient (a blocking check that could not run, or not enough measured); never a verdict against the artifact"},
}

// exitCodesHelp renders the table for --help and the generated docs.
func exitCodesHelp() string {
	var b strings.Builder
	for _, c := range exitCodes {
		fmt.Fprintf(&b, "  %d  %-5s  %s\n", c.Code, c.Name, c.Meaning)
	}
	return b.String()
}

// codeError carries an exit code with an error that explains it.
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &codeError{code: code, err: err} }

// errSilentFail makes the command exit 1 without printing an error: the
// report already said why.
var errSilentFail = errors.New("verdict is not pass")

// errSilentInsufficient makes the command exit 2 without printing an
// error: the report's verdict line already said why it could not judge.
var errSilentInsufficient = errors.New("verdict is insufficient")

// verdictError is the exit of one report: pass 0, fail 1, insufficient 2.
func verdictError(verdict string) error {
	switch verdict {
	case policy.VerdictPass:
		return nil
	case policy.VerdictInsufficient:
		return errSilentInsufficient
	}
	return errSilentFail
}
