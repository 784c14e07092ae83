package model

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// Anthropic speaks the Messages API.
type Anthropic struct {
	BaseURL, Key, ModelID string
	HTTP                  *http.Client
	Retry                 Retry
}

func (a *Anthropic) Provider() string { return "anthropic" }
func (a *Anthropic) Model() string    { return a.ModelID }

type anthBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type anthMessage struct {
	Role    string      `json:"role"`
	Content []anthBlock `json:"content"`
}

type anthTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthRequest struct {
	Model       string        `json:"model"`
	System      string        `json:"system,omitempty"`
	Messages    []anthMessage `json:"messages"`
	Tools       []anthTool    `json:"tools,omitempty"`
	MaxTokens   int           `json:"max_tokens"`
	Temperature float64       `json:"temperature"`
}

type anthResponse struct {
	Model      string      `json:"model"`
	Content    []anthBlock `json:"content"`
	StopReason string      `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// Complete sends one Messages request.
func (a *Anthropic) Complete(ctx context.Context, r Request) (*Response, error) {
	req := anthRequest{Model: a.ModelID, System: r.System, MaxTokens: max(r.Params.MaxTokens, 1), Temperature: r.Params.Temperature}
	for _, m := range r.Messages {
		am := anthMessage{Role: m.Role}
		for _, p := range m.Parts {
			switch p.Type {
			case Text:
				am.Content = append(am.Content, anthBlock{Type: "text", Text: p.Text})
			case ToolUse:
				am.Content = append(am.Content, anthBlock{Type: "tool_use", ID: p.ID, Name: p.Name, Input: orEmpty(p.Input)})
			case ToolResult:
				am.Content = append(am.Content, anthBlock{Type: "tool_result", ToolUseID: p.ID, Content: p.Text, IsError: p.IsError})
			}
		}
		req.Messages = append(req.Messages, am)
	}
	for _, t := range r.Tools {
		req.Tools = append(req.Tools, anthTool{Name: t.Name, Description: t.Description, InputSchema: orEmptySchema(t.Schema)})
	}
	h := http.Header{}
	h.Set("x-api-key", a.Key)
	h.Set("anthropic-version", "2023-06-01")
	var out anthResponse
	if err := post(ctx, a.HTTP, a.Retry, strings.TrimSuffix(a.BaseURL, "/")+"/v1/messages", h, req, &out); err != nil {
		return nil, err
	}
	resp := &Response{StopReason: out.StopReason, Model: out.Model,
		Usage: Usage{Input: out.Usage.InputTokens, Output: out.Usage.OutputTokens}}
	for _, b := range out.Content {
		switch b.Type {
		case "text":
			resp.Parts = append(resp.Parts, Part{Type: Text, Text: b.Text})
		case "tool_use":
			resp.Parts = append(resp.Parts, Part{Type: ToolUse, ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
	return resp, nil
}

func orEmpty(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage("{}")
	}
	return m
}

func orEmptySchema(m json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return m
}
