// Package proxy is the sandbox's only way out: an HTTP proxy (CONNECT for
// HTTPS, absolute URLs for plain HTTP) on a Unix socket bound into the
// sandbox, deny by default, that records every attempt in the network
// ledger. It resolves names itself and refuses loopback, private,
// link-local and metadata addresses even for an allowed host, and never
// lets the artifact reach a model vendor's API.
package proxy

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metahub-ai/attest/behave"
)

// ModelHosts are never reachable from the sandbox, allowed or not: the
// artifact must not talk to the models judging it, nor spend their keys.
var ModelHosts = []string{"api.anthropic.com", "api.openai.com", "openrouter.ai", "generativelanguage.googleapis.com"}

// scanned bounds how much of a request body is read for the canary.
const scanned = 1 << 20

// Proxy is one run's recording proxy.
type Proxy struct {
	// Allow lists host names (exact, or "*.example.com") the artifact may
	// reach; everything else is refused.
	Allow []string
	// Deny adds host names never reachable (the configured model hosts).
	Deny []string
	// Canary is the decoy token; a request carrying it is flagged.
	Canary string
	// Resolve and Permit replace name resolution and the address rule, for
	// tests that serve an allowed host on loopback.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	Permit  func(netip.Addr) bool

	mu     sync.Mutex
	extra  []string
	events []behave.NetEvent
	tag    string
	srv    *http.Server
	ln     net.Listener
	dir    string
	trunc  bool
}

// Start listens on a Unix socket in a new directory and returns it, to be
// bound into the sandbox at behave.ProxySocket's directory.
func (p *Proxy) Start() (dir string, err error) {
	if p.dir, err = os.MkdirTemp("", "attest-proxy-"); err != nil {
		return "", err
	}
	// The sandbox user (nobody, under root) must reach the socket.
	os.Chmod(p.dir, 0o755)
	sock := filepath.Join(p.dir, filepath.Base(behave.ProxySocket))
	if p.ln, err = net.Listen("unix", sock); err != nil {
		os.RemoveAll(p.dir)
		return "", err
	}
	os.Chmod(sock, 0o777)
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go p.srv.Serve(p.ln)
	return p.dir, nil
}

// Close stops the proxy and removes its socket.
func (p *Proxy) Close() error {
	if p.srv != nil {
		p.srv.Close()
	}
	return os.RemoveAll(p.dir)
}

// AllowAlso adds hosts to the allowlist until called again (installing
// dependencies from a registry, before the artifact starts).
func (p *Proxy) AllowAlso(hosts []string) {
	p.mu.Lock()
	p.extra = hosts
	p.mu.Unlock()
}

// Tag labels the events that follow with a case.
func (p *Proxy) Tag(tag string) {
	p.mu.Lock()
	p.tag = tag
	p.mu.Unlock()
}

// Events returns the ledger so far.
func (p *Proxy) Events() (ev []behave.NetEvent, truncated bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]behave.NetEvent{}, p.events...), p.trunc
}

func (p *Proxy) record(e behave.NetEvent) *behave.NetEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.events) >= behave.MaxNetEvents {
		p.trunc = true
		return &behave.NetEvent{}
	}
	e.Case = p.tag
	p.events = append(p.events, e)
	return &p.events[len(p.events)-1]
}

func (p *Proxy) update(e *behave.NetEvent, f func(*behave.NetEvent)) {
	p.mu.Lock()
	f(e)
	p.mu.Unlock()
}

func match(host string, list []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, a := range list {
		a = strings.ToLower(a)
		if host == a || (strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:])) {
			return true
		}
	}
	return false
}

// Public says whether an address is one the proxy may connect to.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsMulticast() || a.IsUnspecified() || a.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range []string{"100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "0.0.0.0/8", "240.0.0.0/4", "fd00:ec2::/32"} {
		if netip.MustParsePrefix(p).Contains(a) {
			return false
		}
	}
	return true
}

func (p *Proxy) allowedNow() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.extra
}

// decide says whether host may be reached and why not.
func (p *Proxy) decide(host string) (bool, string) {
	switch {
	case match(host, ModelHosts) || match(host, p.Deny):
		return false, "a model API is never reachable from the sandbox"
	case !match(host, p.Allow) && !match(host, p.allowedNow()):
		return false, "not on the allowlist (deny by default; --allow-host adds one)"
	}
	return true, ""
}

// dial resolves host itself and connects to a permitted address.
func (p *Proxy) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	resolve := p.Resolve
	if resolve == nil {
		resolve = func(ctx context.Context, h string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", h)
		}
	}
	permit := p.Permit
	if permit == nil {
		permit = Public
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = resolve(ctx, host); err != nil {
		return nil, err
	}
	var d net.Dialer
	for _, a := range addrs {
		if !permit(a) {
			return nil, fmt.Errorf("%s resolves to %s, a loopback, private, link-local or metadata address", host, a)
		}
	}
	for _, a := range addrs {
		if c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String()); err == nil {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no address of %s answered", host)
}

func splitHostPort(hp string, def int) (string, int) {
	h, ps, err := net.SplitHostPort(hp)
	if err != nil {
		return strings.Trim(hp, "[]"), def
	}
	port, err := strconv.Atoi(ps)
	if err != nil {
		return h, def
	}
	return h, port
}

// ServeHTTP handles one proxied request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if r.URL.Host == "" {
		http.Error(w, "this is a proxy: send an absolute URL or CONNECT", http.StatusBadRequest)
		return
	}
	host, port := splitHostPort(r.URL.Host, 80)
	body, _ := io.ReadAll(io.LimitReader(r.Body, scanned))
	ev := p.record(behave.NetEvent{Method: r.Method, Host: host, Port: port, BytesOut: int64(len(body)),
		Canary: p.carries(r, body)})
	ok, why := p.decide(host)
	if !ok {
		p.update(ev, func(e *behave.NetEvent) { e.Reason = why })
		http.Error(w, "attest sandbox: "+why, http.StatusForbidden)
		return
	}
	conn, err := p.dial(r.Context(), host, port)
	if err != nil {
		p.update(ev, func(e *behave.NetEvent) { e.Reason = err.Error() })
		http.Error(w, "attest sandbox: "+err.Error(), http.StatusForbidden)
		return
	}
	defer conn.Close()
	p.update(ev, func(e *behave.NetEvent) { e.Allowed = true })
	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.RequestURI = ""
	out.Header.Del("Proxy-Connection")
	out.Header.Del("Proxy-Authorization")
	if err := out.Write(conn); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	n, _ := io.Copy(w, resp.Body)
	p.update(ev, func(e *behave.NetEvent) { e.BytesIn = n })
}

// carries says the request holds the canary anywhere it can be seen.
func (p *Proxy) carries(r *http.Request, body []byte) bool {
	if p.Canary == "" {
		return false
	}
	if bytes.Contains(body, []byte(p.Canary)) || strings.Contains(r.URL.String(), p.Canary) {
		return true
	}
	for _, vs := range r.Header {
		for _, v := range vs {
			if strings.Contains(v, p.Canary) {
				return true
			}
		}
	}
	return false
}

// counter counts bytes through a connection and watches for the canary
// in what goes out (it is only visible when the tunnel is not TLS).
type counter struct {
	n      atomic.Int64
	canary []byte
	seen   atomic.Bool
	tail   []byte
}

func (c *counter) Write(b []byte) (int, error) {
	c.n.Add(int64(len(b)))
	if len(c.canary) > 0 && !c.seen.Load() {
		win := append(c.tail, b...)
		if bytes.Contains(win, c.canary) {
			c.seen.Store(true)
		}
		if k := len(c.canary) - 1; len(win) > k {
			c.tail = append([]byte{}, win[len(win)-k:]...)
		} else {
			c.tail = win
		}
	}
	return len(b), nil
}

func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	host, port := splitHostPort(r.Host, 443)
	ev := p.record(behave.NetEvent{Method: http.MethodConnect, Host: host, Port: port})
	ok, why := p.decide(host)
	if !ok {
		p.update(ev, func(e *behave.NetEvent) { e.Reason = why })
		http.Error(w, "attest sandbox: "+why, http.StatusForbidden)
		return
	}
	up, err := p.dial(r.Context(), host, port)
	if err != nil {
		p.update(ev, func(e *behave.NetEvent) { e.Reason = err.Error() })
		http.Error(w, "attest sandbox: "+err.Error(), http.StatusForbidden)
		return
	}
	defer up.Close()
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	p.update(ev, func(e *behave.NetEvent) { e.Allowed = true })
	down, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer down.Close()
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	out := &counter{canary: []byte(p.Canary)}
	in := &counter{}
	done := make(chan struct{})
	go func() {
		io.Copy(io.MultiWriter(up, out), buf)
		if c, ok := up.(*net.TCPConn); ok {
			c.CloseWrite()
		}
		close(done)
	}()
	io.Copy(io.MultiWriter(down, in), up)
	down.Close()
	<-done
	p.update(ev, func(e *behave.NetEvent) {
		e.BytesOut, e.BytesIn, e.Canary = out.n.Load(), in.n.Load(), out.seen.Load()
	})
}
