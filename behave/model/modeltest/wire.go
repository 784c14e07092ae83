package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

func parseAnthropic(body []byte) (generic, error) {
	var r struct {
		Model    string `json:"model"`
		System   string `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type    string `json:"type"`
				Text    string `json:"text"`
				Content string `json:"content"`
				IsError bool   `json:"is_error"`
			} `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		MaxTokens   int     `json:"max_tokens"`
		Temperature float64 `json:"temperature"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return generic{}, err
	}
	if r.MaxTokens == 0 || r.Model == "" {
		return generic{}, fmt.Errorf("model and max_tokens are required")
	}
	g := generic{model: r.Model, system: r.System, temp: r.Temperature, maxTokens: r.MaxTokens}
	for _, m := range r.Messages {
		gm := gmsg{role: m.Role}
		for _, c := range m.Content {
			switch c.Type {
			case "text":
				gm.text += c.Text
			case "tool_use":
				gm.uses++
			case "tool_result":
				gm.res++
				gm.text += c.Content
				gm.isErr = gm.isErr || c.IsError
			}
		}
		g.msgs = append(g.msgs, gm)
	}
	for _, t := range r.Tools {
		g.tools = append(g.tools, gtool{Name: t.Name, Schema: t.InputSchema})
	}
	return g, nil
}

func writeAnthropic(w http.ResponseWriter, model string, a answer, in, out int) {
	content := []map[string]any{}
	stop := "end_turn"
	if a.text != "" {
		content = append(content, map[string]any{"type": "text", "text": a.text})
	}
	if a.toolName != "" {
		content = append(content, map[string]any{"type": "tool_use", "id": a.toolID, "name": a.toolName, "input": json.RawMessage(a.toolArgs)})
		stop = "tool_use"
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "usage": map[string]int{"input_tokens": in, "output_tokens": out}})
}

func parseChat(body []byte) (generic, error) {
	var r struct {
		Model    string `json:"model"`
		Messages []struct {
			Role      string            `json:"role"`
			Content   *string           `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		MaxTokens   int     `json:"max_tokens"`
		Temperature float64 `json:"temperature"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return generic{}, err
	}
	g := generic{model: r.Model, temp: r.Temperature, maxTokens: r.MaxTokens}
	for _, m := range r.Messages {
		text := ""
		if m.Content != nil {
			text = *m.Content
		}
		switch m.Role {
		case "system":
			g.system += text
		case "tool":
			// Tool results follow their call as messages of their own; the
			// fake counts them on a user turn, as Anthropic carries them.
			g.msgs = append(g.msgs, gmsg{role: "user", text: text, res: 1})
		default:
			g.msgs = append(g.msgs, gmsg{role: m.Role, text: text, uses: len(m.ToolCalls)})
		}
	}
	for _, t := range r.Tools {
		g.tools = append(g.tools, gtool{Name: t.Function.Name, Schema: t.Function.Parameters})
	}
	return g, nil
}

func writeChat(w http.ResponseWriter, model string, a answer, in, out int) {
	msg := map[string]any{"role": "assistant", "content": nil}
	finish := "stop"
	if a.text != "" {
		msg["content"] = a.text
	}
	if a.toolName != "" {
		msg["tool_calls"] = []map[string]any{{"id": a.toolID, "type": "function",
			"function": map[string]string{"name": a.toolName, "arguments": a.toolArgs}}}
		finish = "tool_calls"
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}})
}

func parseResponses(body []byte) (generic, error) {
	var r struct {
		Model        string `json:"model"`
		Instructions string `json:"instructions"`
		Input        []struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Output string `json:"output"`
		} `json:"input"`
		Tools []struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"tools"`
		MaxOutputTokens int     `json:"max_output_tokens"`
		Temperature     float64 `json:"temperature"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return generic{}, err
	}
	g := generic{model: r.Model, system: r.Instructions, temp: r.Temperature, maxTokens: r.MaxOutputTokens}
	for _, it := range r.Input {
		switch it.Type {
		case "message":
			m := gmsg{role: it.Role}
			for _, c := range it.Content {
				m.text += c.Text
			}
			g.msgs = append(g.msgs, m)
		case "function_call":
			g.msgs = append(g.msgs, gmsg{role: "assistant", uses: 1})
		case "function_call_output":
			g.msgs = append(g.msgs, gmsg{role: "user", text: it.Output, res: 1})
		}
	}
	for _, t := range r.Tools {
		g.tools = append(g.tools, gtool{Name: t.Name, Schema: t.Parameters})
	}
	return g, nil
}

func writeResponses(w http.ResponseWriter, model string, a answer, in, out int) {
	output := []map[string]any{}
	if a.text != "" {
		output = append(output, map[string]any{"type": "message", "role": "assistant",
			"content": []map[string]string{{"type": "output_text", "text": a.text}}})
	}
	if a.toolName != "" {
		output = append(output, map[string]any{"type": "function_call", "call_id": a.toolID, "name": a.toolName, "arguments": a.toolArgs})
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "resp_fake", "object": "response", "status": "completed", "model": model,
		"output": output, "usage": map[string]int{"input_tokens": in, "output_tokens": out}})
}
