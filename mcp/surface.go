// Package mcp models an MCP server's surface: the tools, prompts and
// resources it advertises, each with the strings a model reads and the
// place it was found. A surface is declared (discovered statically from
// source), observed (captured from a running server) or a snapshot (a
// captured tools/list, prompts/list and resources/list read from a
// file). Entries are digested the way ARCHITECTURE §3.2 records them: the
// exact UTF-8 bytes of a description, the RFC 8785 canonical JSON of a
// schema.
package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// Origins of a surface.
const (
	Declared = "declared"
	Observed = "observed"
	Snapshot = "snapshot"
)

// Surface is what a server advertises.
type Surface struct {
	Origin       string
	Instructions string // the server's initialize instructions, when known
	Tools        []Tool
	Prompts      []Prompt
	Resources    []Resource
	// Unresolved lists registrations static discovery found but could not
	// read in full (a description loaded at run time, a name computed):
	// coverage, never silence.
	Unresolved []Unresolved
}

// Site is where static discovery found an entry.
type Site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Handler string `json:"handler,omitempty"`
}

// Param is one input parameter with the strings a model reads about it.
type Param struct {
	Name        string
	Title       string
	Description string
	// Other strings the schema holds for it: defaults, enum values,
	// examples.
	Values []string
	// Unused is set when the handler's code is known and never reads the
	// parameter.
	Unused bool
}

// Tool is one tool.
type Tool struct {
	Name, Title, Description string
	// InputSchema and OutputSchema are the JSON schemas when known (a
	// snapshot, a capture, or a JSON literal in source); static discovery
	// of a zod or pydantic schema records its Params only.
	InputSchema, OutputSchema json.RawMessage
	Annotations               map[string]any
	Params                    []Param
	Site                      Site
}

// Prompt is one prompt.
type Prompt struct {
	Name, Title, Description string
	Arguments                []Param
	// Body is the template text of a statically discovered prompt, when
	// it is a constant.
	Body string
	Site Site
}

// Resource is one resource or resource template.
type Resource struct {
	Name, Title, Description   string
	URI, URITemplate, MIMEType string
	// Text is the constant content of a statically discovered resource.
	Text string
	Site Site
}

// Unresolved is a registration whose strings could not all be read.
type Unresolved struct {
	Kind string // tool, prompt or resource
	Name string // when known
	What string // what could not be resolved: "description", "name", ...
	// Partial is set when the string was read but for substitutions
	// filled at run time (an f-string or template literal): its literal
	// text is on the entry, with Hole in their place.
	Partial bool
	Site    Site
}

// Empty reports whether nothing was found, resolved or not.
func (s *Surface) Empty() bool {
	return len(s.Tools) == 0 && len(s.Prompts) == 0 && len(s.Resources) == 0 && len(s.Unresolved) == 0
}

// SHA256Text is the hex SHA-256 of a string's exact bytes: no
// normalisation, so an invisible character changes it.
func SHA256Text(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// SchemaSHA256 is the hex SHA-256 of a schema's RFC 8785 canonical form,
// or "" when there is no schema or it is not valid JSON.
func SchemaSHA256(schema json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	canon, err := jsoncanonicalizer.Transform(schema)
	if err != nil {
		return ""
	}
	return SHA256Text(string(canon))
}

// Sort orders every list by name (then URI), so that a surface found in
// any file order records the same.
func (s *Surface) Sort() {
	sort.SliceStable(s.Tools, func(i, j int) bool { return s.Tools[i].Name < s.Tools[j].Name })
	sort.SliceStable(s.Prompts, func(i, j int) bool { return s.Prompts[i].Name < s.Prompts[j].Name })
	sort.SliceStable(s.Resources, func(i, j int) bool {
		a, b := s.Resources[i], s.Resources[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.URI+a.URITemplate < b.URI+b.URITemplate
	})
}

// Strings yields every string of the surface a model may read, with the
// entry it belongs to and the field it came from, for the analysers.
func (s *Surface) Strings(yield func(kind, entry, field, text string, site Site) bool) {
	emit := func(kind, entry, field, text string, site Site) bool {
		if text == "" {
			return true
		}
		return yield(kind, entry, field, text, site)
	}
	params := func(kind, entry string, ps []Param, site Site) bool {
		for _, p := range ps {
			if !emit(kind, entry, "parameter name", p.Name, site) ||
				!emit(kind, entry, "parameter "+p.Name+" title", p.Title, site) ||
				!emit(kind, entry, "parameter "+p.Name+" description", p.Description, site) {
				return false
			}
			for _, v := range p.Values {
				if !emit(kind, entry, "parameter "+p.Name+" value", v, site) {
					return false
				}
			}
		}
		return true
	}
	if !emit("server", "", "instructions", s.Instructions, Site{}) {
		return
	}
	for _, t := range s.Tools {
		if !emit("tool", t.Name, "name", t.Name, t.Site) || !emit("tool", t.Name, "title", t.Title, t.Site) ||
			!emit("tool", t.Name, "description", t.Description, t.Site) || !params("tool", t.Name, t.Params, t.Site) {
			return
		}
		if title, ok := t.Annotations["title"].(string); ok && !emit("tool", t.Name, "annotation title", title, t.Site) {
			return
		}
	}
	for _, p := range s.Prompts {
		if !emit("prompt", p.Name, "name", p.Name, p.Site) || !emit("prompt", p.Name, "title", p.Title, p.Site) ||
			!emit("prompt", p.Name, "description", p.Description, p.Site) || !params("prompt", p.Name, p.Arguments, p.Site) ||
			!emit("prompt", p.Name, "template", p.Body, p.Site) {
			return
		}
	}
	for _, r := range s.Resources {
		if !emit("resource", r.Name, "name", r.Name, r.Site) || !emit("resource", r.Name, "title", r.Title, r.Site) ||
			!emit("resource", r.Name, "description", r.Description, r.Site) || !emit("resource", r.Name, "URI", r.URI, r.Site) ||
			!emit("resource", r.Name, "URI template", r.URITemplate, r.Site) ||
			!emit("resource", r.Name, "content", r.Text, r.Site) {
			return
		}
	}
}
