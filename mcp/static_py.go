package mcp

import (
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
)

type pyFile struct {
	src Source
	f   *fold.File
	s   *Surface
}

// text folds an expression; a dotted constant such as GitTools.STATUS or
// TimeTools.NOW.value resolves to the class attribute's value.
func (p *pyFile) text(ts []lex.Token) (string, bool) {
	if len(ts) == 0 {
		return "", false
	}
	if v, ok := p.f.Eval(ts, 0); ok {
		return v, true
	}
	var last string
	for i, t := range ts {
		switch {
		case i%2 == 0 && t.Kind == lex.Ident:
			if t.Text != "value" {
				last = t.Text
			}
		case i%2 == 1 && t.Text == ".":
		default:
			return "", false
		}
	}
	v, ok := p.f.Consts[last]
	return v, ok && last != ""
}

// desc reads a description: folded, or an f-string read in part; what is
// not read in full is recorded as unresolved.
func (p *pyFile) desc(ts []lex.Token, kind, name string, site Site) string {
	if v, ok := p.text(ts); ok {
		return v
	}
	v, complete, ok := interpolated(p.f, ts)
	if !complete {
		p.s.Unresolved = append(p.s.Unresolved, Unresolved{Kind: kind, Name: name, What: "description", Partial: ok, Site: site})
	}
	return v
}

// descAt reads a registration's description at token at: as desc does,
// and, for a name that does not fold, through the values the enclosing
// function gives it (a local, or a parameter its callers pass).
func (p *pyFile) descAt(ts []lex.Token, kind, name string, site Site, at int) string {
	var cands [][]lex.Token
	if _, ok := p.text(ts); !ok {
		switch {
		case len(ts) == 1 && ts[0].Kind == lex.Ident:
			cands = p.candidates(ts[0].Text, at)
		case len(ts) == 3 && ts[0].Kind == lex.Ident && ts[1].Text == "." && ts[2].Kind == lex.Ident:
			cands = p.fieldValues(ts[2].Text)
		}
	}
	var texts []string
	partial := false
	for _, c := range cands {
		if v, ok := p.text(c); ok {
			texts = append(texts, v)
		} else if v, complete, ok := interpolated(p.f, c); ok {
			texts, partial = append(texts, v), partial || !complete
		} else {
			partial = true
		}
	}
	if len(texts) == 0 {
		return p.desc(ts, kind, name, site)
	}
	if partial {
		p.s.Unresolved = append(p.s.Unresolved, Unresolved{Kind: kind, Name: name, What: "description", Partial: true, Site: site})
	}
	return strings.Join(texts, "\n\n")
}

// fieldValues resolves an object's field read as a description
// (listing.description) flow-insensitively: the values the file's own
// constructions pass for a keyword of that name (ToolListing(description=
// X)), registrations aside.
func (p *pyFile) fieldValues(field string) [][]lex.Token {
	var out [][]lex.Token
	for _, c := range p.f.Calls() {
		switch base := c.Name[strings.LastIndex(c.Name, ".")+1:]; base {
		case "tool", "prompt", "resource", "Tool", "Prompt", "Resource":
			continue
		}
		if v, ok := kwargs(c.Args)[field]; ok {
			if _, folds := p.text(v); folds {
				out = append(out, v)
			}
		}
		if len(out) >= maxCandidates {
			break
		}
	}
	return out
}

// kwargs maps a call's keyword arguments to their tokens.
func kwargs(args [][]lex.Token) map[string][]lex.Token {
	out := map[string][]lex.Token{}
	for _, a := range args {
		if len(a) >= 3 && a[0].Kind == lex.Ident && a[1].Text == "=" {
			out[a[0].Text] = a[2:]
		}
	}
	return out
}

func (p *pyFile) discover() {
	for _, c := range p.f.Calls() {
		base := c.Name[strings.LastIndex(c.Name, ".")+1:]
		site := Site{File: p.src.Path, Line: c.Line}
		kw := kwargs(c.Args)
		switch base {
		case "Tool":
			if kw["name"] == nil {
				continue
			}
			name, ok := p.text(kw["name"])
			if !ok {
				p.s.Unresolved = append(p.s.Unresolved, Unresolved{Kind: "tool", What: "name", Site: site})
				continue
			}
			t := Tool{Name: name, Site: site}
			t.Title, _ = p.text(kw["title"])
			if v, ok := kw["description"]; ok {
				t.Description = p.desc(v, "tool", name, site)
			}
			if v, ok := kw["inputSchema"]; ok {
				js := &jsFile{f: p.f, decls: map[string][]lex.Token{}}
				if lit, ok := js.literal(v).(map[string]any); ok {
					t.InputSchema = marshal(lit)
					t.Params = SchemaParams(t.InputSchema)
				}
			}
			p.s.Tools = append(p.s.Tools, t)
		case "Prompt":
			if kw["name"] == nil {
				continue
			}
			name, ok := p.text(kw["name"])
			if !ok {
				p.s.Unresolved = append(p.s.Unresolved, Unresolved{Kind: "prompt", What: "name", Site: site})
				continue
			}
			pr := Prompt{Name: name, Site: site}
			pr.Title, _ = p.text(kw["title"])
			pr.Description, _ = p.text(kw["description"])
			for k, t := range kw["arguments"] {
				if t.Text == "PromptArgument" && k+1 < len(kw["arguments"]) && kw["arguments"][k+1].Text == "(" {
					args := kw["arguments"][k+2 : fold.Closing(kw["arguments"], k+1)]
					akw := kwargs(fold.SplitArgs(args))
					an, _ := p.text(akw["name"])
					ad, _ := p.text(akw["description"])
					pr.Arguments = append(pr.Arguments, Param{Name: an, Description: ad})
				}
			}
			p.s.Prompts = append(p.s.Prompts, pr)
		case "Resource", "ResourceTemplate":
			if kw["name"] == nil || kw["uri"] == nil && kw["uriTemplate"] == nil {
				continue
			}
			r := Resource{Site: site}
			r.Name, _ = p.text(kw["name"])
			r.URI, _ = p.text(kw["uri"])
			r.URITemplate, _ = p.text(kw["uriTemplate"])
			r.Title, _ = p.text(kw["title"])
			r.Description, _ = p.text(kw["description"])
			r.MIMEType, _ = p.text(kw["mimeType"])
			p.s.Resources = append(p.s.Resources, r)
		}
	}
	p.decorated()
}

// decorated reads FastMCP registrations: @mcp.tool(), @server.prompt(),
// @mcp.resource("uri"), with name=/description= or the docstring.
func (p *pyFile) decorated() {
	ts := p.f.Toks
	handlers := map[string]int{} // a tool handler's function name → its tool
	defer func() { p.docAssignments(handlers) }()
	for i := 0; i+3 < len(ts); i++ {
		if ts[i].Text != "@" || !ts[i].LineStart {
			continue
		}
		name, args, end := callAtDecorator(ts, i+1)
		if end < 0 {
			continue
		}
		base := name[strings.LastIndex(name, ".")+1:]
		if !strings.Contains(name, ".") || base != "tool" && base != "prompt" && base != "resource" {
			continue
		}
		def := end + 1
		for def < len(ts) && (ts[def].Text == "@" || ts[def].Text == "async" || ts[def].Depth > ts[i].Depth || !ts[def].LineStart && ts[def].Text != "def") {
			if ts[def].Text == "def" {
				break
			}
			def++
		}
		if def+2 >= len(ts) || ts[def].Text != "def" || ts[def+2].Text != "(" {
			continue
		}
		fn := ts[def+1].Text
		pclose := fold.Closing(ts, def+2)
		colon := pclose + 1
		for colon < len(ts) && ts[colon].Text != ":" {
			colon++
		}
		var doc string
		if colon+1 < len(ts) && ts[colon+1].Kind == lex.String {
			doc, _ = fold.Unquote(ts[colon+1])
		}
		kw := kwargs(args)
		site := Site{File: p.src.Path, Line: int(ts[i].Line), Handler: fn}
		regName := fn
		if v, ok := kw["name"]; ok {
			if n, ok := p.text(v); ok {
				regName = n
			}
		}
		desc := doc
		if v, ok := kw["description"]; ok {
			desc = p.descAt(v, base, regName, site, i)
		}
		params := p.params(ts[def+3 : pclose])
		docArgs(params, doc)
		markUnused(params, body(ts, def, colon))
		switch base {
		case "tool":
			title, _ := p.text(kw["title"])
			handlers[fn] = len(p.s.Tools)
			p.s.Tools = append(p.s.Tools, Tool{Name: regName, Title: title, Description: desc, Params: params, Site: site})
		case "prompt":
			p.s.Prompts = append(p.s.Prompts, Prompt{Name: regName, Description: desc, Arguments: params, Site: site})
		case "resource":
			r := Resource{Name: regName, Description: desc, Site: site}
			if len(args) > 0 && (len(args[0]) < 2 || args[0][1].Text != "=") {
				uri, _ := p.text(args[0])
				if strings.Contains(uri, "{") {
					r.URITemplate = uri
				} else {
					r.URI = uri
				}
			}
			p.s.Resources = append(p.s.Resources, r)
		}
	}
}

// docArgs gives a parameter with no description of its own the line a
// Google- or NumPy-style docstring's Args section writes for it: the text
// the model reads about it, inside the description.
func docArgs(params []Param, doc string) {
	in := false
	for _, ln := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(ln)
		switch {
		case t == "Args:" || t == "Arguments:" || t == "Parameters:" || t == "Params:":
			in = true
			continue
		case t == "" || strings.HasSuffix(t, ":") && !strings.Contains(t, " "):
			in = in && t == ""
			continue
		case !in:
			continue
		}
		name, text, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if i := strings.IndexAny(name, " ("); i > 0 {
			name = name[:i] // name (type): text
		}
		for k := range params {
			if params[k].Name == name && params[k].Description == "" {
				params[k].Description = strings.TrimSpace(text)
			}
		}
	}
}

// body is the tokens of a def's body: after its colon, to the first
// statement back at the def's indentation or less.
func body(ts []lex.Token, def, colon int) []lex.Token {
	end := colon + 1
	for end < len(ts) && !(ts[end].LineStart && ts[end].Col <= ts[def].Col && ts[end].Depth == 0 && end > colon+1) {
		end++
	}
	return ts[min(colon+1, len(ts)):end]
}

// markUnused marks the parameters a handler's body never names: a value
// the tool asks the model for and then ignores.
func markUnused(params []Param, body []lex.Token) {
	used := map[string]bool{}
	for _, t := range body {
		if t.Kind == lex.Ident {
			used[t.Text] = true
		}
	}
	for i := range params {
		params[i].Unused = len(body) > 0 && !used[params[i].Name]
	}
}

// callAtDecorator reads a dotted name and its call arguments from ts[i];
// a decorator without parentheses has none.
func callAtDecorator(ts []lex.Token, i int) (string, [][]lex.Token, int) {
	if i >= len(ts) || ts[i].Kind != lex.Ident {
		return "", nil, -1
	}
	name := ts[i].Text
	j := i + 1
	for j+1 < len(ts) && ts[j].Text == "." && ts[j+1].Kind == lex.Ident {
		name += "." + ts[j+1].Text
		j += 2
	}
	if j >= len(ts) || ts[j].Text != "(" {
		return name, nil, j - 1
	}
	end := fold.Closing(ts, j)
	if end >= len(ts) {
		return "", nil, -1
	}
	return name, fold.SplitArgs(ts[j+1 : end]), end
}

// params reads a function's parameters with Field(description=...) or
// Annotated descriptions; self, cls and Context parameters are skipped.
func (p *pyFile) params(ts []lex.Token) []Param {
	var out []Param
	for _, a := range fold.SplitArgs(ts) {
		if len(a) == 0 || a[0].Kind != lex.Ident || a[0].Text == "self" || a[0].Text == "cls" {
			continue
		}
		prm := Param{Name: a[0].Text}
		isCtx := false
		for k := 1; k < len(a); k++ {
			if a[k].Text == "Context" {
				isCtx = true
			}
			if a[k].Text == "description" && k+2 < len(a) && a[k+1].Text == "=" {
				end := k + 2
				for end < len(a) && a[end].Text != "," && a[end].Text != ")" {
					if a[end].Text == "(" || a[end].Text == "[" {
						end = fold.Closing(a, end)
					}
					end++
				}
				prm.Description, _ = p.text(a[k+2 : min(end, len(a))])
			}
		}
		if !isCtx {
			out = append(out, prm)
		}
	}
	return out
}
