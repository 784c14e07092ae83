package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/resolve/remote"
	"github.com/metahub-ai/attest/verify"
)

// errFailed is a check that ran and failed (exit 1), its answers already
// printed.
var errFailed = errors.New("failed")

// sub runs one of the commands that parse their own flags (signing, the
// log, the behavioral tier) in this process, output to out.
func (a *app) sub(ctx context.Context, out io.Writer, args ...string) error {
	rest := args[1:]
	switch args[0] {
	case "keygen":
		return keys.Main(rest, out)
	case "sign":
		return sign.Main(ctx, rest, out)
	case "verify":
		return verify.Main(ctx, rest, out)
	case "log-serve":
		return logServe(ctx, rest, out, a.stderr)
	case "log-trusted-root":
		return logTrustedRoot(rest, out)
	case "log-verify":
		return logVerify(ctx, rest, out)
	case "behave":
		return behaveMain(ctx, rest, out, a.stderr)
	case "replay":
		return replayMain(ctx, rest, out, a.stderr)
	case "registry-serve":
		return remote.ServeMain(ctx, rest, a.stderr)
	}
	return fmt.Errorf("no subcommand %q", args[0])
}

// subFailed maps a subcommand's failure to attest's exit codes: a check
// that failed exits 1 silently (its answers are above); anything else is
// exit 2 with what failed and why.
func subFailed(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errFailed), errors.Is(err, verify.ErrFailed):
		return errSilentFail
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return err
	}
	return withCode(exitError, fmt.Errorf("%s: %w", what, err))
}
