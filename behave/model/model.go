// Package model speaks to language models over their vendors' HTTP APIs:
// Anthropic Messages, OpenAI Chat Completions and Responses, OpenRouter,
// and any OpenAI-compatible endpoint (LOCAL_LLM_BASE_URL). Every adapter
// retries with backoff and honours Retry-After, and every call's tokens
// are metered per role.
package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/metahub-ai/attest/behave"
)

// Part is one piece of a message: text, a tool call or a tool's result.
type Part struct {
	Type string `json:"type"` // text, tool_use, tool_result
	Text string `json:"text,omitempty"`
	// ID ties a tool_result to its tool_use.
	ID      string          `json:"id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	IsError bool            `json:"isError,omitempty"`
}

// Part types.
const (
	Text       = "text"
	ToolUse    = "tool_use"
	ToolResult = "tool_result"
)

// Message is one turn.
type Message struct {
	Role  string `json:"role"` // user, assistant
	Parts []Part `json:"parts"`
}

// Tool is a tool the model may call.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"inputSchema"`
}

// Params are the sampling parameters of a call, recorded in the report.
type Params struct {
	Temperature float64 `json:"temperature"`
	MaxTokens   int     `json:"maxTokens"`
}

// Request is one call.
type Request struct {
	System   string
	Messages []Message
	Tools    []Tool
	Params   Params
}

// Usage counts tokens.
type Usage struct {
	Input  int `json:"inputTokens"`
	Output int `json:"outputTokens"`
}

// Response is the model's answer.
type Response struct {
	Parts      []Part
	StopReason string
	Usage      Usage
	// Model is the model that answered, as the vendor names it.
	Model string
}

// Text joins the response's text parts.
func (r *Response) Text() string {
	var s string
	for _, p := range r.Parts {
		if p.Type == Text {
			s += p.Text
		}
	}
	return s
}

// Client is one model behind one vendor API.
type Client interface {
	Complete(ctx context.Context, r Request) (*Response, error)
	// Provider and Model name it in the report.
	Provider() string
	Model() string
}

// ErrAuth is a refused key: retrying will not help.
var ErrAuth = errors.New("the provider refused the API key")

// ErrOutage is the provider failing after every retry; a run that meets it
// is an error of the run, never charged to the artifact.
var ErrOutage = errors.New("the model provider is not answering")

// Role is a client used for one role, with its parameters and its meter.
type Role struct {
	Name   string
	Client Client
	Params Params

	mu    sync.Mutex
	usage Usage
	calls int
}

// Complete calls the client with the role's parameters and meters it.
func (r *Role) Complete(ctx context.Context, req Request) (*Response, error) {
	req.Params = r.Params
	resp, err := r.Client.Complete(ctx, req)
	r.mu.Lock()
	r.calls++
	if resp != nil {
		r.usage.Input += resp.Usage.Input
		r.usage.Output += resp.Usage.Output
	}
	r.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("%s (%s %s): %w", r.Name, r.Client.Provider(), r.Client.Model(), err)
	}
	return resp, nil
}

// Record says what the role used, for the report.
func (r *Role) Record() behave.ModelRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return behave.ModelRecord{Provider: r.Client.Provider(), Model: r.Client.Model(), Temperature: r.Params.Temperature,
		MaxTokens: r.Params.MaxTokens, InputTokens: r.usage.Input, OutputTokens: r.usage.Output, Calls: r.calls}
}
