package netallow

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func newTLS(t *testing.T, h http.HandlerFunc) (*httptest.Server, Options, *Recorder) {
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	rec := &Recorder{}
	u, _ := url.Parse(srv.URL)
	return srv, Options{Hosts: []string{u.Hostname()}, Recorder: rec, Base: srv.Client().Transport}, rec
}

func TestAllowedRequestIsRecorded(t *testing.T) {
	srv, o, rec := newTLS(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) })
	resp, err := New(o).Get(srv.URL + "/v1/vulns/X")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(b)
	ex := rec.Exchanges()
	if len(ex) != 1 || ex[0].SHA256 != hex.EncodeToString(sum[:]) || ex[0].Status != 200 || ex[0].Bytes != int64(len(b)) || ex[0].Method != "GET" {
		t.Fatalf("recorded %+v", ex)
	}
}

func TestRefusesPlainHTTP(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	rec := &Recorder{}
	_, err := New(Options{Hosts: []string{u.Hostname()}, Recorder: rec}).Get(srv.URL)
	if !errors.Is(err, ErrRefused) || hit {
		t.Fatalf("err %v, server reached %v", err, hit)
	}
	if ex := rec.Exchanges(); len(ex) != 1 || !strings.Contains(ex[0].Error, "not HTTPS") {
		t.Fatalf("recorded %+v", ex)
	}
}

func TestRefusesOtherHosts(t *testing.T) {
	for _, u := range []string{"https://api.osv.dev.attacker.example/v1/query", "https://example.com/", "https://user:pw@api.osv.dev/"} {
		_, err := New(Options{Hosts: []string{"api.osv.dev", "osv.dev"}}).Get(u)
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: err %v", u, err)
		}
	}
}

func TestRefusesRedirectToOtherHost(t *testing.T) {
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the other host was reached") }))
	defer other.Close()
	// Same address, other name: only the name differs, so only the allowlist can refuse it.
	target := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	srv, o, _ := newTLS(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" {
			io.WriteString(w, "fine")
			return
		}
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, "/same", http.StatusFound)
			return
		}
		http.Redirect(w, r, target+"/x", http.StatusFound)
	})
	c := New(o)
	if _, err := c.Get(srv.URL + "/away"); !errors.Is(err, ErrRefused) {
		t.Fatalf("redirect to %s: err %v", target, err)
	}
	resp, err := c.Get(srv.URL + "/hop")
	if err != nil {
		t.Fatalf("redirect on the same host: %v", err)
	}
	resp.Body.Close()
}

func TestCapsResponseWhileReading(t *testing.T) {
	srv, o, rec := newTLS(t, func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // no Content-Length: the cap must hold while reading
		for range 64 {
			w.Write([]byte(strings.Repeat("x", 1024)))
		}
	})
	o.MaxBody = 10 << 10
	resp, err := New(o).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if !errors.Is(err, ErrTooLarge) || n > o.MaxBody {
		t.Fatalf("read %d bytes, err %v", n, err)
	}
	if ex := rec.Exchanges(); len(ex) != 1 || ex[0].SHA256 != "" || ex[0].Error == "" {
		t.Fatalf("recorded %+v", ex)
	}
}
