package mcpsurfacewellformed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-surface-well-formed.
var Check = &checks.Check{
	ID:          "mcp-surface-well-formed",
	Version:     "1.0.0",
	Title:       "MCP surface is well-formed",
	Axis:        checks.Integrity,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Forms:       []resolve.Form{resolve.FormSurface},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MaxToolName is the longest tool name the MCP specification recommends.
const MaxToolName = 128

// specName reports whether a name holds only the characters the
// specification recommends: ASCII letters, digits, "_", "-" and ".".
func specName(n string) bool {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

type finding struct {
	fail bool
	ev   checks.Evidence
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := surface.Of(in.Subject)
	captured := s.Origin != mcp.Declared
	var out []finding
	add := func(fail bool, site mcp.Site, format string, args ...any) {
		out = append(out, finding{fail, surface.At(site, fmt.Sprintf(format, args...))})
	}
	tools := 0
	seen := map[string]bool{}
	for _, t := range s.Tools {
		if !captured && surface.IsTest(t.Site.File) {
			continue // a test's registration is not the surface
		}
		tools++
		switch {
		case t.Name == "":
			add(true, t.Site, "a tool has no name")
		case seen[t.Name]:
			// A captured surface is what one client received; in source,
			// configuration may choose between two registrations.
			add(captured, t.Site, "two tools are named %q", t.Name)
		case len(t.Name) > MaxToolName:
			add(false, t.Site, "tool name %.40q… is %d characters, over %d", t.Name, len(t.Name), MaxToolName)
		case !specName(t.Name):
			add(false, t.Site, "tool name %q holds characters other than ASCII letters, digits, _, - and .", t.Name)
		}
		seen[t.Name] = true
		switch {
		case len(t.InputSchema) > 0:
			schema(add, t.Site, t.Name, "inputSchema", t.InputSchema)
		case captured:
			add(true, t.Site, "tool %q has no inputSchema", t.Name)
		}
		if len(t.OutputSchema) > 0 {
			schema(add, t.Site, t.Name, "outputSchema", t.OutputSchema)
		}
	}
	seenPrompt := map[string]bool{}
	for _, p := range s.Prompts {
		switch {
		case p.Name == "":
			add(true, p.Site, "a prompt has no name")
		case seenPrompt[p.Name] && captured:
			add(true, p.Site, "two prompts are named %q", p.Name)
		}
		seenPrompt[p.Name] = true
	}
	seenURI := map[string]bool{}
	for _, r := range s.Resources {
		uri := r.URI + r.URITemplate
		switch {
		case r.Name == "" && captured:
			add(true, r.Site, "resource %q has no name", uri)
		case uri != "" && seenURI[uri] && captured:
			add(true, r.Site, "two resources have the URI %q", uri)
		}
		seenURI[uri] = true
	}
	entries := tools + len(s.Prompts) + len(s.Resources)
	if entries == 0 {
		return checks.NotApplicable("no tools, prompts or resources found"), nil
	}
	var fails, warns []checks.Evidence
	for _, f := range out {
		if f.fail {
			fails = append(fails, f.ev)
		} else {
			warns = append(warns, f.ev)
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Message, append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	}
	return checks.Passed(fmt.Sprintf("%s: names unique and within the specification, every known schema a JSON Schema object",
		checks.Plural(entries, "entry"))), nil
}

// errRemote stops resolution at a reference outside the schema.
var errRemote = errors.New("a remote schema is not fetched")

// schema judges one tool schema: a JSON object of type "object" that
// parses and resolves as a JSON Schema, whose required names are
// properties it defines.
func schema(add func(bool, mcp.Site, string, ...any), site mcp.Site, tool, field string, raw json.RawMessage) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		add(true, site, "tool %q %s is not JSON: %v", tool, field, err)
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		add(true, site, "tool %q %s is not a JSON object", tool, field)
		return
	}
	if typ, _ := obj["type"].(string); typ != "object" {
		add(true, site, "tool %q %s has type %s, not \"object\"", tool, field, typeOf(obj["type"]))
		return
	}
	// Patterns are ECMA-262 expressions, which Go's regexp does not read
	// in full; they are left out rather than judged by the wrong grammar.
	// Draft 4's boolean exclusiveMinimum and exclusiveMaximum are read
	// differently under the 2020-12 default: said, then left out.
	old := false
	clean, err := json.Marshal(normalize(obj, 0, &old))
	if old {
		add(false, site, "tool %q %s uses draft 4's boolean exclusiveMinimum or exclusiveMaximum, which a 2020-12 client reads differently", tool, field)
	}
	if err != nil {
		add(true, site, "tool %q %s cannot be read: %v", tool, field, err)
		return
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(clean, &sch); err != nil {
		add(true, site, "tool %q %s is not a valid JSON Schema: %v", tool, field, err)
		return
	}
	_, err = sch.Resolve(&jsonschema.ResolveOptions{Loader: func(*url.URL) (*jsonschema.Schema, error) { return nil, errRemote }})
	switch {
	case errors.Is(err, errRemote):
		add(false, site, "tool %q %s refers to a remote schema, not fetched: %v", tool, field, err)
	case err != nil:
		add(true, site, "tool %q %s is not a valid JSON Schema: %v", tool, field, err)
	}
	props, _ := obj["properties"].(map[string]any)
	req, _ := obj["required"].([]any)
	var missing []string
	for _, r := range req {
		if name, ok := r.(string); ok {
			if _, ok := props[name]; !ok {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		add(false, site, "tool %q %s requires %s, which it does not define", tool, field, strings.Join(missing, ", "))
	}
}

func typeOf(v any) string {
	if v == nil {
		return "missing"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// maxDepth bounds the walk over a schema; a snapshot is already bounded
// to 64 levels of nesting.
const maxDepth = 64

// normalize copies a decoded schema without its "pattern" strings and
// boolean exclusive bounds (setting *old for those), and with each
// patternProperties key taken literally.
func normalize(v any, depth int, old *bool) any {
	if depth > maxDepth {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if _, isStr := e.(string); k == "pattern" && isStr {
				continue
			}
			if _, isBool := e.(bool); (k == "exclusiveMinimum" || k == "exclusiveMaximum") && isBool {
				*old = true
				continue
			}
			if pp, ok := e.(map[string]any); k == "patternProperties" && ok {
				lit := make(map[string]any, len(pp))
				for re, sub := range pp {
					lit[regexp.QuoteMeta(re)] = normalize(sub, depth+1, old)
				}
				out[k] = lit
				continue
			}
			out[k] = normalize(e, depth+1, old)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e, depth+1, old)
		}
		return out
	}
	return v
}
