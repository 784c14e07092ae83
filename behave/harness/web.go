package harness

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/behave"
)

// webServer reaches an MCP server that listens for Streamable HTTP inside
// the sandbox: the agent relays a Unix socket, in a directory bound into
// the sandbox, to the server's loopback address there, and the client's
// HTTP requests dial that socket.
type webServer struct {
	dir, path string
}

func (r *run) webServer(spec *behave.AgentSpec) (*webServer, error) {
	if np, ok := r.o.Sandbox.(interface{ NoProxy() bool }); ok && np.NoProxy() {
		return nil, fmt.Errorf("an MCP server over Streamable HTTP needs a sandbox that can bind a socket (bubblewrap, podman, docker), not %s", r.o.Sandbox.Name())
	}
	u, err := url.Parse(r.o.MCPURL)
	if err != nil || u.Scheme != "http" || u.Port() == "" {
		return nil, fmt.Errorf("--mcp-url %q: want http://127.0.0.1:PORT/PATH, where the server listens inside the sandbox", r.o.MCPURL)
	}
	if a, err := netip.ParseAddr(u.Hostname()); (err != nil || !a.IsLoopback()) && u.Hostname() != "localhost" {
		return nil, fmt.Errorf("--mcp-url %q: the server listens inside the sandbox, so its host is 127.0.0.1 or localhost", r.o.MCPURL)
	}
	dir, err := os.MkdirTemp("", "attest-server-")
	if err != nil {
		return nil, err
	}
	// The sandbox's user makes the socket here.
	os.Chmod(dir, 0o777)
	host := u.Hostname()
	if host == "localhost" {
		host = "127.0.0.1"
	}
	spec.ServerDir, spec.ServerAddr = dir, net.JoinHostPort(host, u.Port())
	return &webServer{dir: dir, path: u.RequestURI()}, nil
}

func (w *webServer) remove() {
	if w != nil {
		os.RemoveAll(w.dir)
	}
}

// connect retries until the server answers or ctx ends: a server takes a
// moment to listen.
func (w *webServer) connect(ctx context.Context, client *sdk.Client) (*sdk.ClientSession, error) {
	sock := filepath.Join(w.dir, filepath.Base(behave.ServerSocket))
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		MaxResponseHeaderBytes: 1 << 20,
	}}
	var last error
	for {
		cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://sandbox" + w.path, HTTPClient: hc,
			MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		if err == nil {
			return cs, nil
		}
		last = err
		select {
		case <-ctx.Done():
			return nil, last
		case <-time.After(200 * time.Millisecond):
		}
	}
}
