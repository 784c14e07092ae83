// Command attest-net is attest's companion: it does everything that
// reaches the network, and the Sigstore signing, so that attest itself
// links no network stack and none of those libraries: an offline run
// cannot reach the network, and starts without paying for HTTP, TLS, git
// transport, osv-scalibr, the OSV client or sigstore-go (20 ms of package
// initialisation on its own). attest runs it itself:
//
//	attest-net fetch --out DIR TARGET   fetch a remote target into DIR (attest run TARGET)
//	attest-net osv < request.json       look up advisories in OSV (attest run --net)
//	attest-net registry-serve DIR       serve a registry catalog (attest registry serve)
//	attest-net log-serve --dir DIR      run a transparency log (attest log serve)
//	attest-net sign --key K REPORT      sign a report (attest sign)
//	attest-net verify ... BUNDLE        verify with sigstore-go (attest-verify hands it what it cannot check)
//	attest-net behave ...               run the behavioral tier (attest run --behavioral)
//	attest-net replay ... REPORT        re-judge stored transcripts (attest replay)
//	attest-net setup ...                choose a sandbox and a model (attest setup)
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/behave/agent"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan"
	"github.com/metahub-ai/attest/cmd/internal/gctune"
	"github.com/metahub-ai/attest/resolve/remote"
	"github.com/metahub-ai/attest/verify"
	"github.com/metahub-ai/attest/verify/sigstore"
)

const usage = `usage:
  attest-net fetch --out DIR TARGET   fetch a remote target into DIR
  attest-net osv < request.json       look up dependency advisories in OSV
  attest-net mcp-serve [--root DIR]   attest as an MCP server over stdio
  attest-net registry-serve [--addr ADDR] DIR   serve a registry catalog directory
  attest-net sign --key KEY [--out FILE] REPORT  sign a report as a Sigstore bundle
  attest-net keygen [--algorithm A] --out NAME   make a signing key pair
  attest-net log-serve --dir DIR [--addr ADDR] [--key KEY] [--origin NAME]   run a transparency log
  attest-net log-trusted-root --dir DIR [--url URL]   print a trusted root naming the log
  attest-net log-verify --url URL --since CHECKPOINT (--trusted-root F | --key PUB)   check consistency
  attest-net verify [--key PUB | --identity S --issuer U] [--trusted-root F] [--artifact DIR] BUNDLE  check a signed report
  attest-net behave --dir DIR --kind KIND [flags]   run the behavioral tier (attest run --behavioral)
  attest-net replay --transcripts DIR REPORT   re-hash and re-judge stored transcripts (attest replay)
  attest-net setup [flags]   choose a sandbox and a model (attest setup)

attest runs this helper itself, for remote targets and for 'attest run --net'.`

// errFailed is a check that ran and failed (exit 1).
var errFailed = errors.New("failed")

func main() {
	gctune.Apply()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "sandbox-agent":
		// Inside the sandbox: no signal handling or tuning of attest-net's.
		os.Exit(agent.Main(os.Args[2:]))
	case "fetch":
		err = remote.Main(ctx, os.Args[2:], os.Stdout)
	case "osv":
		err = osvscan.Main(ctx, os.Stdin, os.Stdout)
	case "verify":
		err = verify.Main(ctx, os.Args[2:], os.Stdout, sigstore.Full())
		if errors.Is(err, verify.ErrFailed) {
			os.Exit(1)
		}
	case "keygen":
		err = keys.Main(os.Args[2:], os.Stdout)
	case "sign":
		err = sign.Main(ctx, os.Args[2:], os.Stdout)
	case "log-serve":
		err = logServe(ctx, os.Args[2:], os.Stdout, os.Stderr)
	case "log-trusted-root":
		err = logTrustedRoot(os.Args[2:], os.Stdout)
	case "log-verify":
		err = logVerify(ctx, os.Args[2:], os.Stdout)
		if errors.Is(err, errFailed) {
			os.Exit(1)
		}
	case "mcp-serve":
		err = mcpServe(ctx, os.Args[2:], os.Stdin, os.Stdout)
	case "behave":
		err = behaveMain(ctx, os.Args[2:], os.Stdout, os.Stderr)
	case "replay":
		err = replayMain(ctx, os.Args[2:], os.Stdout, os.Stderr)
		if errors.Is(err, errFailed) {
			os.Exit(1)
		}
	case "setup":
		err = setupMain(ctx, os.Args[2:], os.Stdin, os.Stdout, os.Stderr)
	case "registry-serve":
		err = remote.ServeMain(ctx, os.Args[2:], os.Stderr)
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "attest-net:", err)
		os.Exit(2)
	}
}
