package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/behave/model/modeltest"
)

var noWait = model.Retry{Sleep: func(context.Context, time.Duration) error { return nil }}

func client(t *testing.T, f *modeltest.Fake, provider string, retry model.Retry) model.Client {
	t.Helper()
	base := f.URL
	if provider != "anthropic" {
		base += "/v1"
	}
	c, err := model.New(model.Settings{Provider: provider, BaseURL: base, Key: f.Key}, "m-1", nil, retry)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var bash = model.Tool{Name: "bash", Description: "run", Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}

// Every adapter speaks its vendor's wire format through a tool call and
// its result, and meters tokens.
func TestAdaptersRoundTrip(t *testing.T) {
	for _, p := range []string{"anthropic", "openai", "openai-responses", "openrouter", "local"} {
		t.Run(p, func(t *testing.T) {
			f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
			role := &model.Role{Name: "driver", Client: client(t, f, p, noWait), Params: model.Params{Temperature: 0.3, MaxTokens: 99}}
			sys := "ROLE: driver\n```bash\necho hi\n```\n"
			msgs := []model.Message{{Role: "user", Parts: []model.Part{{Type: model.Text, Text: "go"}}}}
			r, err := role.Complete(context.Background(), model.Request{System: sys, Messages: msgs, Tools: []model.Tool{bash}})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Parts) != 1 || r.Parts[0].Type != model.ToolUse || r.Parts[0].Name != "bash" || !strings.Contains(string(r.Parts[0].Input), "echo hi") {
				t.Fatalf("%+v", r.Parts)
			}
			msgs = append(msgs, model.Message{Role: "assistant", Parts: r.Parts},
				model.Message{Role: "user", Parts: []model.Part{{Type: model.ToolResult, ID: r.Parts[0].ID, Text: "hi"}}})
			r, err = role.Complete(context.Background(), model.Request{System: sys, Messages: msgs, Tools: []model.Tool{bash}})
			if err != nil || !strings.Contains(r.Text(), "Finished after 1 tool calls") {
				t.Fatalf("%v %+v", err, r)
			}
			rec := role.Record()
			if rec.Calls != 2 || rec.InputTokens == 0 || rec.OutputTokens == 0 || rec.Model != "m-1" || rec.Temperature != 0.3 || rec.MaxTokens != 99 {
				t.Fatalf("%+v", rec)
			}
			if s := f.Requests[0]; s.Model != "m-1" || s.Temperature != 0.3 || s.MaxTokens != 99 {
				t.Fatalf("sent %+v", s)
			}
		})
	}
}

// Rate limits and server errors are retried, honouring Retry-After; a
// refused key is not; a provider that stays down is ErrOutage.
func TestRetries(t *testing.T) {
	f := modeltest.Start(t, &modeltest.Fake{Key: "k", RateLimited: 2, Failing: 1})
	var waits []time.Duration
	retry := model.Retry{Base: 100 * time.Millisecond, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	c := client(t, f, "anthropic", retry)
	if _, err := c.Complete(context.Background(), model.Request{System: "ROLE: judge"}); err != nil {
		t.Fatal(err)
	}
	// Two 429s with Retry-After: 0, then a 500 backed off exponentially.
	if len(waits) != 3 || waits[0] != 0 || waits[1] != 0 || waits[2] != 400*time.Millisecond {
		t.Fatalf("waits %v", waits)
	}
	f.Down = true
	if _, err := c.Complete(context.Background(), model.Request{}); !errors.Is(err, model.ErrOutage) {
		t.Fatalf("down: %v", err)
	}
	f.Down = false
	bad, _ := model.New(model.Settings{Provider: "anthropic", BaseURL: f.URL, Key: "wrong"}, "m", nil, retry)
	waits = nil
	if _, err := bad.Complete(context.Background(), model.Request{}); !errors.Is(err, model.ErrAuth) || len(waits) != 0 {
		t.Fatalf("a refused key: %v after %d retries", err, len(waits))
	}
}

// A host name that does not resolve is not retried: the run says so at
// once instead of backing off.
func TestDNSFailureNotRetried(t *testing.T) {
	dials := 0
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials++
		return nil, &net.DNSError{Err: "no such host", Name: "api.invalid", IsNotFound: true}
	}}}
	var waits []time.Duration
	retry := model.Retry{Base: time.Second, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	c, err := model.New(model.Settings{Provider: "anthropic", BaseURL: "http://api.invalid", Key: "k"}, "m", hc, retry)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), model.Request{}); err == nil || !strings.Contains(err.Error(), "not retried") || dials != 1 || len(waits) != 0 {
		t.Fatalf("err %v after %d dials, %d waits", err, dials, len(waits))
	}
}

func TestRetryAfterDate(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("Retry-After", time.Now().Add(30*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(529)
			return
		}
		w.Write([]byte(`{"content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1,"output_tokens":1}}`))
	}))
	defer srv.Close()
	var waits []time.Duration
	c := &model.Anthropic{BaseURL: srv.URL, Key: "k", ModelID: "m", Retry: model.Retry{Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}}
	if r, err := c.Complete(context.Background(), model.Request{}); err != nil || r.Text() != "ok" {
		t.Fatal(err)
	}
	if len(waits) != 1 || waits[0] < 25*time.Second || waits[0] > 31*time.Second {
		t.Fatalf("waits %v", waits)
	}
}

// The provider is chosen from flags, the environment and the saved setup;
// several keys and no choice is refused.
func TestResolve(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := model.Resolve(model.Settings{}, model.Settings{}, env(map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"})); err == nil || !strings.Contains(err.Error(), "--provider") {
		t.Fatalf("several keys: %v", err)
	}
	s, err := model.Resolve(model.Settings{Provider: "openai"}, model.Settings{}, env(map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}))
	if err != nil || s.Key != "o" || s.BaseURL != "https://api.openai.com/v1" {
		t.Fatalf("%+v %v", s, err)
	}
	saved := model.Settings{Provider: "anthropic", Key: "saved", Model: "claude-x"}
	s, err = model.Resolve(model.Settings{}, saved, env(map[string]string{"ANTHROPIC_API_KEY": "env"}))
	if err != nil || s.Key != "env" || s.Model != "claude-x" {
		t.Fatalf("the environment wins: %+v %v", s, err)
	}
	if _, err := model.Resolve(model.Settings{}, model.Settings{}, env(nil)); !errors.Is(err, model.ErrNoProvider) {
		t.Fatalf("nothing: %v", err)
	}
	if _, err := model.Resolve(model.Settings{Provider: "local"}, model.Settings{}, env(nil)); err == nil || !strings.Contains(err.Error(), "LOCAL_LLM_BASE_URL") {
		t.Fatalf("local: %v", err)
	}
	s, err = model.Resolve(model.Settings{}, model.Settings{}, env(map[string]string{"LOCAL_LLM_BASE_URL": "http://127.0.0.1:1/v1", "LOCAL_LLM_MODEL": "qwen"}))
	if err != nil || s.Provider != "local" || s.Model != "qwen" {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestCheckKey(t *testing.T) {
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	for _, p := range []string{"anthropic", "openai"} {
		base := f.URL
		if p == "openai" {
			base += "/v1"
		}
		if err := model.CheckKey(context.Background(), model.Settings{Provider: p, BaseURL: base, Key: "k"}, nil); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := model.CheckKey(context.Background(), model.Settings{Provider: p, BaseURL: base, Key: "x"}, nil); !errors.Is(err, model.ErrAuth) {
			t.Fatalf("%s: %v", p, err)
		}
	}
	f.Down = true
	if err := model.CheckKey(context.Background(), model.Settings{Provider: "anthropic", BaseURL: f.URL, Key: "k"}, nil); err == nil || errors.Is(err, model.ErrAuth) {
		t.Fatalf("5xx: %v", err)
	}
}
