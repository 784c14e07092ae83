// Package netallow is the one HTTP client through which checks reach the
// network: HTTPS only, to an allowlist of hosts (redirects re-checked),
// response bodies capped while they are read, and every exchange recorded
// with a digest of what came back.
package netallow

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/metahub-ai/attest/checks/internal/ledger"
)

// Exchange is one request and a digest of its response, for the report.
type Exchange = ledger.Exchange

// Recorder collects exchanges in the order they finish.
type Recorder struct {
	mu  sync.Mutex
	log []Exchange
}

func (r *Recorder) add(e Exchange) {
	r.mu.Lock()
	r.log = append(r.log, e)
	r.mu.Unlock()
}

// Exchanges returns what was recorded so far.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

// Options configure a client.
type Options struct {
	Hosts    []string // exact host names allowed (no ports, no wildcards)
	MaxBody  int64    // response bytes read at most; 0 means 32 MiB
	Timeout  time.Duration
	Recorder *Recorder
	// Base is the transport underneath; nil means a clone of
	// http.DefaultTransport (tests pass one that trusts their server).
	Base http.RoundTripper
}

// ErrRefused is returned for a request the allowlist does not permit.
var ErrRefused = errors.New("refused by the network allowlist")

// ErrTooLarge is returned when a response outgrows MaxBody.
var ErrTooLarge = errors.New("response larger than the allowed size")

// New returns a client that enforces o.
func New(o Options) *http.Client {
	if o.MaxBody <= 0 {
		o.MaxBody = 32 << 20
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	base := o.Base
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// A proxy from the environment would be a host we did not allow.
		t.Proxy = nil
		base = t
	}
	rt := &transport{o: o, base: base}
	return &http.Client{
		Transport: rt,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return fmt.Errorf("%w: more than 5 redirects", ErrRefused)
			}
			return rt.allowed(req)
		},
	}
}

type transport struct {
	o    Options
	base http.RoundTripper
}

func (t *transport) allowed(req *http.Request) error {
	u := req.URL
	if u.Scheme != "https" {
		return fmt.Errorf("%w: %s is not HTTPS", ErrRefused, u.Redacted())
	}
	if u.User != nil {
		return fmt.Errorf("%w: credentials in the URL", ErrRefused)
	}
	host := strings.ToLower(u.Hostname())
	if !slices.Contains(t.o.Hosts, host) {
		return fmt.Errorf("%w: host %s is not one of %s", ErrRefused, host, strings.Join(t.o.Hosts, ", "))
	}
	return nil
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.allowed(req); err != nil {
		t.record(Exchange{Method: req.Method, URL: req.URL.Redacted(), Error: err.Error()})
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.record(Exchange{Method: req.Method, URL: req.URL.Redacted(), Error: err.Error()})
		return nil, err
	}
	if resp.ContentLength > t.o.MaxBody {
		resp.Body.Close()
		err := fmt.Errorf("%w: %s announces %d bytes, the limit is %d", ErrTooLarge, req.URL.Redacted(), resp.ContentLength, t.o.MaxBody)
		t.record(Exchange{Method: req.Method, URL: req.URL.Redacted(), Status: resp.StatusCode, Error: err.Error()})
		return nil, err
	}
	resp.Body = &body{rc: resp.Body, h: sha256.New(), max: t.o.MaxBody, t: t,
		e: Exchange{Method: req.Method, URL: req.URL.Redacted(), Status: resp.StatusCode}}
	return resp, nil
}

func (t *transport) record(e Exchange) {
	if t.o.Recorder != nil {
		t.o.Recorder.add(e)
	}
}

// body hashes and counts a response as it is read, stops past max, and
// records the exchange once, at EOF, error or close.
type body struct {
	rc   io.ReadCloser
	h    hash.Hash
	n    int64
	max  int64
	t    *transport
	e    Exchange
	once sync.Once
}

func (b *body) Read(p []byte) (int, error) {
	if b.n >= b.max {
		// One byte more than allowed tells a full body from a cut one.
		var one [1]byte
		if k, _ := b.rc.Read(one[:]); k > 0 {
			b.finish(ErrTooLarge)
			return 0, fmt.Errorf("%w (%d bytes)", ErrTooLarge, b.max)
		}
	}
	if rest := b.max - b.n; int64(len(p)) > rest {
		p = p[:max(rest, 1)]
	}
	k, err := b.rc.Read(p)
	b.h.Write(p[:k])
	b.n += int64(k)
	if b.n > b.max {
		b.finish(ErrTooLarge)
		return 0, fmt.Errorf("%w (%d bytes)", ErrTooLarge, b.max)
	}
	if err == io.EOF {
		b.finish(nil)
	} else if err != nil {
		b.finish(err)
	}
	return k, err
}

func (b *body) Close() error {
	b.finish(errors.New("closed before the end"))
	return b.rc.Close()
}

func (b *body) finish(err error) {
	b.once.Do(func() {
		b.e.Bytes = b.n
		if err == nil {
			b.e.SHA256 = hex.EncodeToString(b.h.Sum(nil))
		} else {
			b.e.Error = err.Error()
		}
		b.t.record(b.e)
	})
}
