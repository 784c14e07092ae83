package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// Limits on a snapshot file, which is untrusted input.
const (
	MaxSnapshotBytes   = 16 << 20
	MaxSnapshotDepth   = 64
	MaxSnapshotEntries = 10_000
)

// ErrNotSnapshot means the JSON holds no tools, prompts or resources list.
var ErrNotSnapshot = errors.New("not an MCP surface: expected a tools/list, prompts/list or resources/list result")

type wireTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  map[string]any  `json:"annotations"`
}

type wireArg struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

type wirePrompt struct {
	Name        string    `json:"name"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Arguments   []wireArg `json:"arguments"`
}

type wireResource struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	URI         string `json:"uri"`
	URITemplate string `json:"uriTemplate"`
	MIMEType    string `json:"mimeType"`
}

type wireLists struct {
	Tools             []wireTool     `json:"tools"`
	Prompts           []wirePrompt   `json:"prompts"`
	Resources         []wireResource `json:"resources"`
	ResourceTemplates []wireResource `json:"resourceTemplates"`
	Instructions      string         `json:"instructions"`
	// A JSON-RPC response carries the lists in result.
	Result *wireLists `json:"result"`
	// A capture of initialize carries the server's instructions there.
	ServerInfo json.RawMessage `json:"serverInfo"`
}

// ParseSnapshot reads a captured surface: a tools/list, prompts/list or
// resources/list result, the JSON-RPC response carrying it, an object
// holding several of the lists, or an array of any of these (a capture
// of several calls). Size, depth and entry counts are bounded.
func ParseSnapshot(data []byte) (*Surface, error) {
	if len(data) > MaxSnapshotBytes {
		return nil, fmt.Errorf("snapshot is %d bytes, over the %d-byte limit", len(data), MaxSnapshotBytes)
	}
	if err := checkDepth(data, MaxSnapshotDepth); err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var parts []wireLists
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		if err := json.Unmarshal(trimmed, &parts); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	default:
		var one wireLists
		if err := json.Unmarshal(trimmed, &one); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		parts = []wireLists{one}
	}
	s := &Surface{Origin: Snapshot}
	found := false
	for _, p := range parts {
		for q := &p; q != nil; q = q.Result {
			if q.Tools != nil || q.Prompts != nil || q.Resources != nil || q.ResourceTemplates != nil || q.Instructions != "" {
				found = true
			}
			if q.Instructions != "" {
				s.Instructions = q.Instructions
			}
			for _, t := range q.Tools {
				s.Tools = append(s.Tools, Tool{Name: t.Name, Title: t.Title, Description: t.Description,
					InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: t.Annotations, Params: SchemaParams(t.InputSchema)})
			}
			for _, pr := range q.Prompts {
				p := Prompt{Name: pr.Name, Title: pr.Title, Description: pr.Description}
				for _, a := range pr.Arguments {
					p.Arguments = append(p.Arguments, Param{Name: a.Name, Title: a.Title, Description: a.Description})
				}
				s.Prompts = append(s.Prompts, p)
			}
			for _, r := range append(q.Resources, q.ResourceTemplates...) {
				s.Resources = append(s.Resources, Resource{Name: r.Name, Title: r.Title, Description: r.Description,
					URI: r.URI, URITemplate: r.URITemplate, MIMEType: r.MIMEType})
			}
			if len(s.Tools)+len(s.Prompts)+len(s.Resources) > MaxSnapshotEntries {
				return nil, fmt.Errorf("snapshot holds more than %d entries", MaxSnapshotEntries)
			}
		}
	}
	if !found {
		return nil, ErrNotSnapshot
	}
	s.Sort()
	return s, nil
}

// SchemaParams reads the parameters of a JSON schema's top-level
// properties with the strings a model reads about each.
func SchemaParams(schema json.RawMessage) []Param {
	var sch struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &sch) != nil {
		return nil
	}
	names := make([]string, 0, len(sch.Properties))
	for n := range sch.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Param
	for _, n := range names {
		prop := sch.Properties[n]
		p := Param{Name: n}
		p.Title, _ = prop["title"].(string)
		p.Description, _ = prop["description"].(string)
		if d, ok := prop["default"].(string); ok {
			p.Values = append(p.Values, d)
		}
		for _, key := range []string{"enum", "examples"} {
			if vs, ok := prop[key].([]any); ok {
				for _, v := range vs {
					if s, ok := v.(string); ok {
						p.Values = append(p.Values, s)
					}
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// checkDepth rejects JSON nested deeper than max, before any decoder
// builds it.
func checkDepth(data []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > max {
				return fmt.Errorf("snapshot nests deeper than %d levels", max)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}
