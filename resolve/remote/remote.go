package remote

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/metahub-ai/attest/resolve"
)

// Result is what a fetch tells resolve about the tree it wrote.
type Result = resolve.FetchResult

// Fetch writes the target's tree into dir, an empty directory.
func Fetch(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	switch t.Type {
	case resolve.TypeGit:
		return fetchGit(ctx, t, dir)
	case resolve.TypeNPM:
		return fetchNPM(ctx, t, dir)
	case resolve.TypePyPI:
		return fetchPyPI(ctx, t, dir)
	case resolve.TypeRegistry:
		return fetchRegistry(ctx, t, dir)
	}
	return nil, fmt.Errorf("target %q: %w", t.Raw, resolve.ErrUnsupportedTarget)
}

// ServeMain is 'attest registry serve [--addr ADDR] DIR': it serves a
// catalog directory until ctx ends, then shuts down gracefully.
func ServeMain(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("registry-serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: attest registry serve [--addr ADDR] DIR")
	}
	h, closeRoot, err := RegistryHandler(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("serving %s: %w", fs.Arg(0), err)
	}
	defer closeRoot()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	fmt.Fprintf(log, "serving the registry in %s at http://%s (ATTEST_REGISTRY=http://%s); Ctrl-C stops\n", fs.Arg(0), ln.Addr(), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}
