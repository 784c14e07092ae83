package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxResponse bounds a model's answer as read.
const maxResponse = 8 << 20

// Retry says how calls are retried.
type Retry struct {
	// Attempts is the most tries of one call (default 5).
	Attempts int
	// Base is the first backoff, doubled each time (default 1 s); Max caps
	// a wait, Retry-After's included (default 60 s).
	Base, Max time.Duration
	// Sleep waits; tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 5
	}
	if r.Base <= 0 {
		r.Base = time.Second
	}
	if r.Max <= 0 {
		r.Max = time.Minute
	}
	if r.Sleep == nil {
		r.Sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
				return nil
			}
		}
	}
	return r
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// transient says a status is worth retrying: rate limits, overload,
// server errors.
func transient(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code == 529 || code >= 500
}

// post sends a JSON body and decodes the JSON answer, with retries.
func post(ctx context.Context, hc *http.Client, retry Retry, url string, header http.Header, body, out any) error {
	retry = retry.withDefaults()
	if hc == nil {
		hc = http.DefaultClient
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	var last error
	for attempt := 0; attempt < retry.Attempts; attempt++ {
		if attempt > 0 {
			wait := min(retry.Max, retry.Base<<(attempt-1))
			var ra time.Duration
			var ok bool
			var se *statusError
			if errors.As(last, &se) {
				ra, ok = se.retryAfter, se.hasRetryAfter
			}
			if ok {
				wait = min(retry.Max, ra)
			}
			if err := retry.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		req.Header = header.Clone()
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A name that does not resolve will not resolve on the next
			// try either: say so at once rather than back off for minutes.
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				return fmt.Errorf("%w (check the provider's base URL and the network; not retried)", err)
			}
			last = err
			continue
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
		resp.Body.Close()
		if err != nil {
			last = err
			continue
		}
		if len(data) > maxResponse {
			return fmt.Errorf("the answer is over %d bytes", maxResponse)
		}
		switch {
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			return fmt.Errorf("%w (HTTP %d from %s): %s", ErrAuth, resp.StatusCode, url, snippet(data))
		case transient(resp.StatusCode):
			ra, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now())
			last = &statusError{code: resp.StatusCode, body: snippet(data), retryAfter: ra, hasRetryAfter: ok}
			continue
		case resp.StatusCode/100 != 2:
			return fmt.Errorf("HTTP %d from %s: %s", resp.StatusCode, url, snippet(data))
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("an answer from %s that is not the expected JSON: %v", url, err)
		}
		return nil
	}
	return fmt.Errorf("%w: %d tries: %v", ErrOutage, retry.Attempts, last)
}

type statusError struct {
	code          int
	body          string
	retryAfter    time.Duration
	hasRetryAfter bool
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.code, e.body) }

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
