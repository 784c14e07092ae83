// Command attest-verify is the verifier 'attest verify' starts: it links
// no network stack and not sigstore-go (whose package initialisation alone
// costs 20 ms), only the protobuf-specs bundle types, go-securesystemslib's
// DSSE verifier and attest's own report checks, so a key-signed report is
// verified in one short process. A bundle it cannot check itself (a
// keyless certificate, a log entry, a signed timestamp, a trusted root or
// identity to check against, a summary to sign) goes to the attest-net
// companion, which runs the same checks with sigstore-go.
//
//	attest-verify [--key PUB] [--artifact DIR] [...] BUNDLE|REPORT
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/metahub-ai/attest/cmd/internal/gctune"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/verify"
)

func main() {
	gctune.Apply()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := verify.Main(ctx, os.Args[1:], os.Stdout, nil)
	stop()
	switch {
	case err == nil:
		return
	case errors.Is(err, verify.ErrFailed):
		os.Exit(1)
	case errors.Is(err, verify.ErrNeedsSigstore):
		helper, herr := resolve.NetHelper()
		if herr != nil {
			fmt.Fprintln(os.Stderr, "attest-verify: this bundle needs the Sigstore verifier in attest-net:", herr)
			os.Exit(2)
		}
		argv := append([]string{helper, "verify"}, os.Args[1:]...)
		if err := syscall.Exec(helper, argv, os.Environ()); err != nil {
			// Exec is not available everywhere; run it as a child instead.
			c := exec.Command(helper, argv[1:]...)
			c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := c.Run(); err != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					os.Exit(ee.ExitCode())
				}
				fmt.Fprintln(os.Stderr, "attest-verify:", err)
				os.Exit(2)
			}
		}
		return
	}
	fmt.Fprintln(os.Stderr, "attest-verify:", err)
	os.Exit(2)
}
