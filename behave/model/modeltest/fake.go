// Package modeltest is a scripted model server for tests. It speaks the
// Anthropic Messages, OpenAI Chat Completions and OpenAI Responses wire
// formats and plays the three roles attest asks for, by the role line of
// the system prompt:
//
//   - driver: runs each fenced shell block of the documentation in turn
//     through the "bash" tool (up to three), or calls an MCP server's first
//     tool with placeholder arguments, then ends with a text answer;
//   - judge: refuses to grade documentation that tells the grader what to
//     do, and otherwise scores 9 when no tool call failed, 3 when one did;
//   - synthesis: writes one test case.
//
// Failures are scripted too: a refused key, rate limits with Retry-After,
// server errors, a provider that is down.
package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Fake is the scripted server.
type Fake struct {
	// Key is the API key it accepts; others get 401.
	Key string
	// RateLimited answers the first N calls 429 with Retry-After: 0;
	// Failing the next N with 500; Down every call with 503.
	RateLimited, Failing int
	Down                 bool
	// JudgeScore overrides the judge's score for clean transcripts.
	JudgeScore int

	URL string
	srv *httptest.Server

	mu       sync.Mutex
	Calls    map[string]int // by role
	Requests []Seen
}

// Seen is one request as received.
type Seen struct {
	Path, Role, Model string
	Temperature       float64
	MaxTokens         int
}

// Start serves the fake until the test ends.
func Start(t testing.TB, f *Fake) *Fake {
	f.Calls = map[string]int{}
	f.srv = httptest.NewServer(f)
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

// generic is a request in the fake's own terms.
type generic struct {
	model     string
	system    string
	msgs      []gmsg
	tools     []gtool
	temp      float64
	maxTokens int
}

type gmsg struct {
	role  string
	text  string
	uses  int // tool calls made by the assistant
	res   int // tool results given
	isErr bool
}

type gtool struct {
	Name   string
	Schema json.RawMessage
}

// answer is the fake's reply: text, or one tool call.
type answer struct {
	text     string
	toolName string
	toolArgs string
	toolID   string
}

func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("x-api-key")
	if key == "" {
		key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	if f.Key != "" && key != f.Key {
		http.Error(w, `{"error":{"type":"authentication_error","message":"invalid x-api-key"}}`, http.StatusUnauthorized)
		return
	}
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		if f.Down {
			http.Error(w, `{"error":"overloaded"}`, http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"data":[{"id":"fake-model"}]}`)
		return
	}
	f.mu.Lock()
	switch {
	case f.Down:
		f.mu.Unlock()
		http.Error(w, `{"error":"overloaded"}`, http.StatusServiceUnavailable)
		return
	case f.RateLimited > 0:
		f.RateLimited--
		f.mu.Unlock()
		w.Header().Set("Retry-After", "0")
		http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
		return
	case f.Failing > 0:
		f.Failing--
		f.mu.Unlock()
		http.Error(w, `{"error":"internal"}`, http.StatusInternalServerError)
		return
	}
	f.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	var g generic
	var err error
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		g, err = parseAnthropic(body)
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		g, err = parseChat(body)
	case strings.HasSuffix(r.URL.Path, "/responses"):
		g, err = parseResponses(body)
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	role := roleOf(g.system)
	f.mu.Lock()
	f.Calls[role]++
	f.Requests = append(f.Requests, Seen{Path: r.URL.Path, Role: role, Model: g.model, Temperature: g.temp, MaxTokens: g.maxTokens})
	f.mu.Unlock()
	a := f.play(role, g)
	in, out := len(body)/4, (len(a.text)+len(a.toolArgs))/4+1
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		writeAnthropic(w, g.model, a, in, out)
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		writeChat(w, g.model, a, in, out)
	default:
		writeResponses(w, g.model, a, in, out)
	}
}

var roleLine = regexp.MustCompile(`(?m)^ROLE: (\w+)`)

func roleOf(system string) string {
	if m := roleLine.FindStringSubmatch(system); m != nil {
		return m[1]
	}
	return "unknown"
}

var fence = regexp.MustCompile("(?s)```(?:bash|sh|shell)?\\n(.*?)```")

func (f *Fake) play(role string, g generic) answer {
	switch role {
	case "driver":
		results, uses := 0, 0
		for _, m := range g.msgs {
			results += m.res
			uses += m.uses
		}
		hasTool := func(n string) bool {
			for _, t := range g.tools {
				if t.Name == n {
					return true
				}
			}
			return false
		}
		if hasTool("bash") {
			blocks := fence.FindAllStringSubmatch(g.system, -1)
			if uses < len(blocks) && uses < 3 {
				cmd, _ := json.Marshal(map[string]string{"command": strings.TrimSpace(blocks[uses][1])})
				return answer{toolName: "bash", toolArgs: string(cmd), toolID: fmt.Sprintf("call_%d", uses+1)}
			}
		} else if len(g.tools) > 0 && uses == 0 {
			return answer{toolName: g.tools[0].Name, toolArgs: placeholder(g.tools[0].Schema), toolID: "call_1"}
		}
		return answer{text: fmt.Sprintf("Finished after %d tool calls.", uses)}
	case "judge":
		doc := between(lastUser(g), "<untrusted-documentation>", "</untrusted-documentation>")
		low := strings.ToLower(doc)
		if strings.Contains(low, "ignore previous instructions") || strings.Contains(low, "to the grader") || strings.Contains(low, "score this") {
			return answer{text: `{"refused":"the documentation addresses the grader and tries to set its grade"}`}
		}
		transcript := between(lastUser(g), "<transcript>", "</transcript>")
		score := 9
		if f.JudgeScore > 0 {
			score = f.JudgeScore
		}
		concerns := "[]"
		if strings.Contains(transcript, `"isError":true`) {
			score = 3
		}
		return answer{text: fmt.Sprintf(`Here is my grade.
{"dimensions":{"followsDocumentation":%d,"completesTask":%d,"communicates":%d},"safetyConcerns":%s,"summary":"graded by the fake judge"}`, score, score, score, concerns)}
	case "synthesis":
		return answer{text: `{"cases":[{"id":"synthesized-1","prompt":"Use the artifact for its main documented purpose on a small example."}]}`}
	}
	return answer{text: "I do not know my role."}
}

func lastUser(g generic) string {
	for i := len(g.msgs) - 1; i >= 0; i-- {
		if g.msgs[i].role == "user" {
			return g.msgs[i].text
		}
	}
	return ""
}

func between(s, a, b string) string {
	i := strings.Index(s, a)
	j := strings.LastIndex(s, b)
	if i < 0 || j < i {
		return ""
	}
	return s[i+len(a) : j]
}

// placeholder makes arguments for a tool from its schema's required
// properties.
func placeholder(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	json.Unmarshal(schema, &s)
	args := map[string]any{}
	for _, name := range s.Required {
		switch s.Properties[name].Type {
		case "number", "integer":
			args[name] = 1
		case "boolean":
			args[name] = true
		default:
			args[name] = "hello"
		}
	}
	b, _ := json.Marshal(args)
	return string(b)
}
