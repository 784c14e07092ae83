package mcp

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
)

// Source is one code file handed to static discovery.
type Source struct {
	Path string
	Lang string // js, python or go
	Text string
	// Parsed is the file's tokens and folded constants (js and python),
	// shared with the checks that parsed it.
	Parsed *fold.File
}

// Discover finds the tools, prompts and resources the sources register,
// folding every string; what it cannot resolve is listed in Unresolved.
func Discover(srcs []Source) *Surface {
	s := &Surface{Origin: Declared}
	for _, src := range srcs {
		switch src.Lang {
		case "js":
			if src.Parsed != nil {
				(&jsFile{src: src, f: src.Parsed, s: s}).discover()
			}
		case "python":
			if src.Parsed != nil {
				(&pyFile{src: src, f: src.Parsed, s: s}).discover()
			}
		case "go":
			discoverGo(src, s)
		}
	}
	s.Sort()
	return s
}

// object is an object literal's entries by key (string or identifier
// keys; shorthand entries map a key to itself).
type object map[string][]lex.Token

// objectAt reads the object literal that opens at ts[0] ("{").
func objectAt(ts []lex.Token) (object, bool) {
	if len(ts) == 0 || ts[0].Text != "{" {
		return nil, false
	}
	end := fold.Closing(ts, 0)
	if end >= len(ts) {
		return nil, false
	}
	o := object{}
	for _, e := range fold.SplitArgs(ts[1:end]) {
		if len(e) == 0 {
			continue
		}
		key := e[0].Text
		if e[0].Kind == lex.String {
			key, _ = fold.Unquote(e[0])
		}
		switch {
		case len(e) >= 3 && e[1].Text == ":":
			o[key] = e[2:]
		case len(e) == 1 && e[0].Kind == lex.Ident:
			o[key] = e
		}
	}
	return o, true
}

type jsFile struct {
	src Source
	f   *fold.File
	s   *Surface
	// objects maps a file-level const to the object or call it is
	// initialised with, for configs and schemas held in variables.
	decls map[string][]lex.Token
}

// value resolves an identifier to what its file-level declaration holds.
func (j *jsFile) value(ts []lex.Token) []lex.Token {
	for depth := 0; depth < 4 && len(ts) == 1 && ts[0].Kind == lex.Ident; depth++ {
		v, ok := j.decls[ts[0].Text]
		if !ok {
			break
		}
		ts = v
	}
	return ts
}

func (j *jsFile) text(ts []lex.Token) (string, bool) {
	if len(ts) == 0 {
		return "", false
	}
	return j.f.Eval(j.value(ts), 0)
}

// desc reads a tool description: folded, or a template literal read in
// part; what is not read in full is recorded as unresolved.
func (j *jsFile) desc(ts []lex.Token, name string, site Site) string {
	if v, ok := j.text(ts); ok {
		return v
	}
	v, complete, ok := interpolated(j.f, j.value(ts))
	if !complete {
		j.s.Unresolved = append(j.s.Unresolved, Unresolved{Kind: "tool", Name: name, What: "description", Partial: ok, Site: site})
	}
	return v
}

func (j *jsFile) discover() {
	ts := j.f.Toks
	j.decls = map[string][]lex.Token{}
	for i := 0; i+3 < len(ts); i++ {
		if (ts[i].Text == "const" || ts[i].Text == "let" || ts[i].Text == "var") && ts[i+1].Kind == lex.Ident && ts[i+2].Text == "=" {
			end := i + 3
			if ts[end].Text == "{" || ts[end].Text == "[" {
				end = fold.Closing(ts, end) + 1
			} else {
				for end < len(ts) && ts[end].Text != ";" && !(ts[end].LineStart && ts[end].Depth <= ts[i].Depth && end > i+3 && !strings.HasPrefix(ts[end].Text, ".")) {
					if ts[end].Text == "(" || ts[end].Text == "{" || ts[end].Text == "[" {
						end = fold.Closing(ts, end)
					}
					end++
				}
			}
			j.decls[ts[i+1].Text] = ts[i+3 : min(end, len(ts))]
		}
	}
	seen := map[int]bool{} // token index of object literals already read
	for _, c := range j.f.Calls() {
		dot := strings.LastIndex(c.Name, ".")
		if dot < 0 {
			continue
		}
		base := c.Name[dot+1:]
		site := Site{File: j.src.Path, Line: c.Line}
		switch base {
		case "registerTool", "tool":
			j.tool(c, base == "registerTool", site, seen)
		case "registerPrompt", "prompt":
			j.prompt(c, base == "registerPrompt", site)
		case "registerResource", "resource":
			j.resource(c, site)
		}
	}
	// Object literals with name, description and inputSchema are tools
	// wherever they stand: a tools/list handler's array, a TOOLS const.
	hasSchema := false
	for _, t := range ts {
		if t.Text == "inputSchema" {
			hasSchema = true
			break
		}
	}
	for i, t := range ts {
		if !hasSchema {
			break
		}
		// An object literal opens with a key and a colon.
		if t.Text != "{" || seen[i] || i+2 >= len(ts) || ts[i+2].Text != ":" || ts[i+1].Kind != lex.Ident && ts[i+1].Kind != lex.String {
			continue
		}
		o, ok := objectAt(ts[i:])
		if !ok || o["name"] == nil || o["inputSchema"] == nil || o["description"] == nil {
			continue
		}
		name, nok := j.text(o["name"])
		tool := Tool{Name: name, Site: Site{File: j.src.Path, Line: int(t.Line)}}
		j.fill(&tool, o, "")
		if !nok {
			j.s.Unresolved = append(j.s.Unresolved, Unresolved{Kind: "tool", What: "name", Site: tool.Site})
			continue
		}
		j.s.Tools = append(j.s.Tools, tool)
	}
}

// fill reads a tool's config object.
func (j *jsFile) fill(t *Tool, o object, handler string) {
	t.Site.Handler = handler
	if v, ok := o["title"]; ok {
		t.Title, _ = j.text(v)
	}
	if v, ok := o["description"]; ok {
		t.Description = j.desc(v, t.Name, t.Site)
	}
	if v, ok := o["inputSchema"]; ok {
		t.Params, t.InputSchema = j.schema(v)
	}
	if v, ok := o["outputSchema"]; ok {
		_, t.OutputSchema = j.schema(v)
	}
	if v, ok := o["annotations"]; ok {
		if a, ok := j.literal(j.value(v)).(map[string]any); ok {
			t.Annotations = a
		}
	}
}

// registration reads the name a register call gives (its first argument)
// and the handler it ends with; a name that does not fold is listed as
// unresolved, and a call with fewer than min arguments is no registration.
func (j *jsFile) registration(c fold.Call, kind string, min int, site Site) (string, Site, bool) {
	if len(c.Args) < min {
		return "", site, false
	}
	name, ok := j.text(c.Args[0])
	if !ok {
		j.s.Unresolved = append(j.s.Unresolved, Unresolved{Kind: kind, What: "name", Site: site})
		return "", site, false
	}
	site.Handler = handlerName(c.Args[len(c.Args)-1])
	return name, site, true
}

// tool reads registerTool(name, config, handler) or the positional
// tool(name, description?, schema?, annotations?, handler).
func (j *jsFile) tool(c fold.Call, register bool, site Site, seen map[int]bool) {
	name, site, ok := j.registration(c, "tool", 2, site)
	if !ok {
		return
	}
	t := Tool{Name: name, Site: site}
	handler := site.Handler
	if register {
		cfg := j.value(c.Args[1])
		if len(cfg) > 0 && cfg[0].Text == "{" {
			markSeen(j.f.Toks, cfg, seen)
		}
		o, ok := objectAt(cfg)
		if !ok {
			j.s.Unresolved = append(j.s.Unresolved, Unresolved{Kind: "tool", Name: name, What: "config", Site: site})
			return
		}
		j.fill(&t, o, handler)
	} else {
		for _, a := range c.Args[1 : len(c.Args)-1] {
			v := j.value(a)
			switch {
			case len(v) > 0 && (v[0].Kind == lex.String || v[0].Kind == lex.Template) && t.Description == "":
				t.Description = j.desc(a, name, site)
			case len(v) > 0 && v[0].Text == "{" && t.Params == nil:
				t.Params, t.InputSchema = j.schema(a)
			}
		}
	}
	if h := fnBody(c.Args[len(c.Args)-1]); h != nil {
		used := map[string]bool{}
		for _, tk := range h {
			if tk.Kind == lex.Ident {
				used[tk.Text] = true
			}
		}
		for i := range t.Params {
			t.Params[i].Unused = !used[t.Params[i].Name]
		}
	}
	j.s.Tools = append(j.s.Tools, t)
}

// fnBody is the body of a function literal passed as a handler (an
// arrow's after its =>, a function's after its parameters); nil for
// anything else, a handler named elsewhere included.
func fnBody(ts []lex.Token) []lex.Token {
	if len(ts) == 0 {
		return nil
	}
	base := ts[0].Depth
	for k, t := range ts {
		if t.Text == "=>" && t.Depth == base {
			return ts[k+1:]
		}
	}
	for k, t := range ts {
		switch {
		case t.Text == "function":
			for o := k; o < len(ts); o++ {
				if ts[o].Text == "(" {
					if end := fold.Closing(ts, o); end+1 < len(ts) {
						return ts[end+1:]
					}
					return nil
				}
			}
			return nil
		case t.Text != "async":
			return nil // a name or a call: its code is elsewhere
		}
	}
	return nil
}

func (j *jsFile) prompt(c fold.Call, register bool, site Site) {
	name, site, ok := j.registration(c, "prompt", 2, site)
	if !ok {
		return
	}
	p := Prompt{Name: name, Site: site}
	if register {
		if o, ok := objectAt(j.value(c.Args[1])); ok {
			p.Title, _ = j.text(o["title"])
			p.Description, _ = j.text(o["description"])
			if v, ok := o["argsSchema"]; ok {
				p.Arguments, _ = j.schema(v)
			}
		}
	} else {
		for _, a := range c.Args[1 : len(c.Args)-1] {
			v := j.value(a)
			switch {
			case len(v) > 0 && (v[0].Kind == lex.String || v[0].Kind == lex.Template):
				p.Description, _ = j.text(a)
			case len(v) > 0 && v[0].Text == "{":
				p.Arguments, _ = j.schema(a)
			}
		}
	}
	j.s.Prompts = append(j.s.Prompts, p)
}

func (j *jsFile) resource(c fold.Call, site Site) {
	name, site, ok := j.registration(c, "resource", 3, site)
	if !ok {
		return
	}
	r := Resource{Name: name, Site: site}
	uri := j.value(c.Args[1])
	if len(uri) > 3 && uri[0].Text == "new" && uri[1].Text == "ResourceTemplate" && uri[2].Text == "(" {
		if args := fold.SplitArgs(uri[3:fold.Closing(uri, 2)]); len(args) > 0 {
			r.URITemplate, _ = j.text(args[0])
		}
	} else {
		r.URI, _ = j.text(uri)
	}
	if len(c.Args) > 3 {
		if o, ok := objectAt(j.value(c.Args[2])); ok {
			r.Title, _ = j.text(o["title"])
			r.Description, _ = j.text(o["description"])
			r.MIMEType, _ = j.text(o["mimeType"])
		}
	}
	j.s.Resources = append(j.s.Resources, r)
}

// schema reads an input schema: a zod shape ({p: z.string().describe(..)}),
// z.object({...}), X.shape, or a JSON schema literal.
func (j *jsFile) schema(ts []lex.Token) ([]Param, json.RawMessage) {
	ts = j.value(ts)
	if n := len(ts); n >= 3 && ts[n-2].Text == "." && ts[n-1].Text == "shape" {
		ts = j.value(ts[:n-2])
	}
	for len(ts) > 3 && ts[0].Text == "z" && ts[1].Text == "." && ts[2].Text == "object" {
		ts = ts[4:] // z.object( {...} )
	}
	o, ok := objectAt(ts)
	if !ok {
		return nil, nil
	}
	if props, ok := o["properties"]; ok { // a JSON schema
		if lit, ok := j.literal(ts).(map[string]any); ok {
			if raw, err := json.Marshal(lit); err == nil {
				return SchemaParams(raw), raw
			}
		}
		po, _ := objectAt(j.value(props))
		return j.zodParams(po), nil
	}
	return j.zodParams(o), nil
}

// zodParams reads each key of a zod shape with its .describe() text.
func (j *jsFile) zodParams(o object) []Param {
	var out []Param
	for name, v := range o {
		p := Param{Name: name}
		v = j.value(v)
		for k := 0; k+3 < len(v); k++ {
			if v[k].Text == "." && v[k+1].Text == "describe" && v[k+2].Text == "(" {
				end := fold.Closing(v, k+2)
				p.Description, _ = j.text(v[k+3 : end])
			}
		}
		if po, ok := objectAt(v); ok { // a JSON schema property
			p.Description, _ = j.text(po["description"])
			p.Title, _ = j.text(po["title"])
		}
		out = append(out, p)
	}
	sortParams(out)
	return out
}

// literal evaluates a JSON-like literal (objects, arrays, strings folded,
// numbers, booleans, null); nil when any part is not constant.
func (j *jsFile) literal(ts []lex.Token) any {
	if len(ts) == 0 {
		return nil
	}
	switch ts[0].Text {
	case "{":
		end := fold.Closing(ts, 0)
		if end >= len(ts) {
			return nil
		}
		m := map[string]any{}
		o, _ := objectAt(ts[:end+1])
		for k, v := range o {
			x := j.literal(j.value(v))
			if x == nil {
				return nil
			}
			m[k] = x
		}
		return m
	case "[":
		end := fold.Closing(ts, 0)
		if end >= len(ts) {
			return nil
		}
		var a []any
		for _, e := range fold.SplitArgs(ts[1:end]) {
			if len(e) == 0 {
				continue
			}
			x := j.literal(j.value(e))
			if x == nil {
				return nil
			}
			a = append(a, x)
		}
		if a == nil {
			a = []any{}
		}
		return a
	case "true", "True":
		return true
	case "false", "False":
		return false
	}
	if len(ts) == 1 && ts[0].Kind == lex.Number {
		var n json.Number = json.Number(ts[0].Text)
		if _, err := n.Float64(); err == nil {
			return n
		}
		return nil
	}
	if s, ok := j.f.Eval(ts, 0); ok {
		return s
	}
	return nil
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func handlerName(ts []lex.Token) string {
	if len(ts) == 1 && ts[0].Kind == lex.Ident {
		return ts[0].Text
	}
	return ""
}

// markSeen records the object literal tokens of cfg so the generic
// object-literal pass does not count a registered tool twice.
func markSeen(all, cfg []lex.Token, seen map[int]bool) {
	if len(cfg) == 0 {
		return
	}
	for i := range all {
		if &all[i] == &cfg[0] {
			seen[i] = true
			return
		}
	}
}

func sortParams(ps []Param) {
	slices.SortFunc(ps, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
}
