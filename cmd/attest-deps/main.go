// Command attest-deps is the helper that attest runs for
// deps-no-known-vulns when a run is granted the network: it reads a JSON
// request (the artifact's lockfiles and manifests) on standard input,
// extracts resolved versions with osv-scalibr, looks them up in OSV through
// an allow-listed HTTPS client, and writes the JSON response on standard
// output. It lives apart from attest so that offline runs do not pay for
// the libraries it links.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: attest-deps < request.json > response.json\n\nattest runs this helper itself for 'attest run --net'; it takes no arguments.")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := osvscan.Main(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "attest-deps:", err)
		os.Exit(1)
	}
}
