package model

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// OpenAIChat speaks Chat Completions: OpenAI, OpenRouter and any
// OpenAI-compatible server.
type OpenAIChat struct {
	// Name is the provider in reports: openai, openrouter, local.
	Name, BaseURL, Key, ModelID string
	HTTP                        *http.Client
	Retry                       Retry
}

func (o *OpenAIChat) Provider() string { return o.Name }
func (o *OpenAIChat) Model() string    { return o.ModelID }

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type chatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Tools       []chatTool    `json:"tools,omitempty"`
	MaxTokens   int           `json:"max_tokens"`
	Temperature float64       `json:"temperature"`
}

type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message      chatMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func str(s string) *string { return &s }

// Complete sends one chat completion.
func (o *OpenAIChat) Complete(ctx context.Context, r Request) (*Response, error) {
	req := chatRequest{Model: o.ModelID, MaxTokens: max(r.Params.MaxTokens, 1), Temperature: r.Params.Temperature}
	if r.System != "" {
		req.Messages = append(req.Messages, chatMessage{Role: "system", Content: str(r.System)})
	}
	for _, m := range r.Messages {
		cm := chatMessage{Role: m.Role}
		var text string
		for _, p := range m.Parts {
			switch p.Type {
			case Text:
				text += p.Text
			case ToolUse:
				tc := chatToolCall{ID: p.ID, Type: "function"}
				tc.Function.Name, tc.Function.Arguments = p.Name, string(orEmpty(p.Input))
				cm.ToolCalls = append(cm.ToolCalls, tc)
			case ToolResult:
				req.Messages = append(req.Messages, chatMessage{Role: "tool", ToolCallID: p.ID, Content: str(p.Text)})
			}
		}
		if text != "" || len(cm.ToolCalls) > 0 {
			if text != "" {
				cm.Content = str(text)
			}
			req.Messages = append(req.Messages, cm)
		}
	}
	for _, t := range r.Tools {
		ct := chatTool{Type: "function"}
		ct.Function.Name, ct.Function.Description, ct.Function.Parameters = t.Name, t.Description, orEmptySchema(t.Schema)
		req.Tools = append(req.Tools, ct)
	}
	h := http.Header{}
	if o.Key != "" {
		h.Set("Authorization", "Bearer "+o.Key)
	}
	var out chatResponse
	if err := post(ctx, o.HTTP, o.Retry, strings.TrimSuffix(o.BaseURL, "/")+"/chat/completions", h, req, &out); err != nil {
		return nil, err
	}
	resp := &Response{Model: out.Model, Usage: Usage{Input: out.Usage.PromptTokens, Output: out.Usage.CompletionTokens}}
	if len(out.Choices) > 0 {
		c := out.Choices[0]
		resp.StopReason = c.FinishReason
		if c.Message.Content != nil && *c.Message.Content != "" {
			resp.Parts = append(resp.Parts, Part{Type: Text, Text: *c.Message.Content})
		}
		for _, tc := range c.Message.ToolCalls {
			resp.Parts = append(resp.Parts, Part{Type: ToolUse, ID: tc.ID, Name: tc.Function.Name, Input: args(tc.Function.Arguments)})
		}
	}
	return resp, nil
}

// OpenAIResponses speaks OpenAI's Responses API.
type OpenAIResponses struct {
	BaseURL, Key, ModelID string
	HTTP                  *http.Client
	Retry                 Retry
}

func (o *OpenAIResponses) Provider() string { return "openai-responses" }
func (o *OpenAIResponses) Model() string    { return o.ModelID }

type respItem struct {
	Type      string `json:"type"`
	Role      string `json:"role,omitempty"`
	Content   any    `json:"content,omitempty"`
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Output    string `json:"output,omitempty"`
}

type respTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type respRequest struct {
	Model           string     `json:"model"`
	Instructions    string     `json:"instructions,omitempty"`
	Input           []respItem `json:"input"`
	Tools           []respTool `json:"tools,omitempty"`
	MaxOutputTokens int        `json:"max_output_tokens"`
	Temperature     float64    `json:"temperature"`
	Store           bool       `json:"store"`
}

type respResponse struct {
	Model  string `json:"model"`
	Status string `json:"status"`
	Output []struct {
		Type      string `json:"type"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Content   []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"output"`
	Usage struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// Complete sends one Responses request; nothing is stored at the vendor.
func (o *OpenAIResponses) Complete(ctx context.Context, r Request) (*Response, error) {
	req := respRequest{Model: o.ModelID, Instructions: r.System, MaxOutputTokens: max(r.Params.MaxTokens, 16), Temperature: r.Params.Temperature}
	for _, m := range r.Messages {
		for _, p := range m.Parts {
			switch p.Type {
			case Text:
				typ := "input_text"
				if m.Role == "assistant" {
					typ = "output_text"
				}
				req.Input = append(req.Input, respItem{Type: "message", Role: m.Role, Content: []map[string]string{{"type": typ, "text": p.Text}}})
			case ToolUse:
				req.Input = append(req.Input, respItem{Type: "function_call", CallID: p.ID, Name: p.Name, Arguments: string(orEmpty(p.Input))})
			case ToolResult:
				req.Input = append(req.Input, respItem{Type: "function_call_output", CallID: p.ID, Output: p.Text})
			}
		}
	}
	for _, t := range r.Tools {
		req.Tools = append(req.Tools, respTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: orEmptySchema(t.Schema)})
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+o.Key)
	var out respResponse
	if err := post(ctx, o.HTTP, o.Retry, strings.TrimSuffix(o.BaseURL, "/")+"/responses", h, req, &out); err != nil {
		return nil, err
	}
	resp := &Response{Model: out.Model, StopReason: out.Status, Usage: Usage{Input: out.Usage.InputTokens, Output: out.Usage.OutputTokens}}
	for _, it := range out.Output {
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				if c.Type == "output_text" {
					resp.Parts = append(resp.Parts, Part{Type: Text, Text: c.Text})
				}
			}
		case "function_call":
			resp.Parts = append(resp.Parts, Part{Type: ToolUse, ID: it.CallID, Name: it.Name, Input: args(it.Arguments)})
		}
	}
	return resp, nil
}

// args keeps a model's tool arguments as JSON even when the model wrote
// something else: the harness then answers with an error the model can
// correct.
func args(s string) json.RawMessage {
	if strings.TrimSpace(s) == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(map[string]string{"_invalid": s})
	return b
}
