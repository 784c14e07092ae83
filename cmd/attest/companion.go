package main

import (
	"context"
	"errors"
	"io"
	"os/exec"

	"github.com/metahub-ai/attest/resolve"
)

// errNoCompanion marks a missing attest-net, so callers can tell it from
// the companion's own failure.
var errNoCompanion = errors.New("no companion")

// companion runs an attest-net subcommand with its output passed through
// to out (its errors to standard error). The companion holds attest's
// network and Sigstore code, so that attest itself starts fast.
func (a *app) companion(ctx context.Context, out io.Writer, args ...string) error {
	return a.helper(ctx, resolve.NetHelper, out, args...)
}

// helper runs the binary find locates, output passed through.
func (a *app) helper(ctx context.Context, find func() (string, error), out io.Writer, args ...string) error {
	helper, err := find()
	if err != nil {
		return withCode(exitError, err)
	}
	c := exec.CommandContext(ctx, helper, args...)
	c.Stdout, c.Stderr = out, a.stderr
	return c.Run()
}

// companionFailed maps a companion failure to attest's exit codes: a
// missing companion is already a codeError; the companion's own message
// is above, so only what failed is said.
func companionFailed(err error, what string) error {
	var ce *codeError
	if errors.As(err, &ce) {
		return err
	}
	return withCode(exitError, errors.New(what+" (the reason is above)"))
}

// checkFailed maps a helper that checks something (verify, log verify):
// its exit 1 is a failed check, passed on silently (its answers are
// above); anything else is the helper's own failure.
func checkFailed(err error, what string) error {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == exitFail:
		return errSilentFail
	}
	return companionFailed(err, what)
}
