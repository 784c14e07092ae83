package mcp

import (
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
)

// maxCandidates bounds the values one description name is resolved to.
const maxCandidates = 8

// candidates resolves a name a registration passes as its description
// (description=desc) to the expressions it may hold: an assignment in the
// enclosing function before the registration (both branches of a
// conditional), or, for a parameter of the enclosing function, what the
// file's calls of that function pass it. Values reach a description
// through a helper's parameter or a local as often as through a constant.
func (p *pyFile) candidates(name string, at int) [][]lex.Token {
	ts := p.f.Toks
	def := enclosingDef(ts, at)
	if def < 0 {
		return nil
	}
	var out [][]lex.Token
	// the latest assignment to the name in the function, before the use
	for i := at - 1; i > def; i-- {
		if ts[i].Kind == lex.Ident && ts[i].Text == name && ts[i].LineStart && i+1 < len(ts) && ts[i+1].Text == "=" {
			return branches(exprAt(ts, i+2))
		}
	}
	fn := ts[def+1].Text
	params := fold.SplitArgs(ts[def+3 : fold.Closing(ts, def+2)])
	idx := -1
	for k, prm := range params {
		for len(prm) > 0 && (prm[0].Text == "*" || prm[0].Text == "**") {
			prm = prm[1:]
		}
		if len(prm) > 0 && prm[0].Text == name {
			idx = k
		}
	}
	if idx < 0 {
		return nil
	}
	if len(params) > 0 && len(params[0]) > 0 && (params[0][0].Text == "self" || params[0][0].Text == "cls") {
		idx-- // a method's call sites do not pass self
	}
	for _, c := range p.f.Calls() {
		if c.Name != fn && !strings.HasSuffix(c.Name, "."+fn) || c.Index > 0 && ts[c.Index-1].Text == "def" {
			continue // another function, or the def's own signature
		}
		kw := kwargs(c.Args)
		switch v, ok := kw[name]; {
		case ok:
			out = append(out, branches(v)...)
		case idx >= 0 && idx < len(c.Args) && (len(c.Args[idx]) < 2 || c.Args[idx][1].Text != "="):
			out = append(out, branches(c.Args[idx])...)
		}
		if len(out) >= maxCandidates {
			break
		}
	}
	return out
}

// enclosingDef finds the def whose body holds the token at: the nearest
// def before it that starts a line at a smaller indentation.
func enclosingDef(ts []lex.Token, at int) int {
	col := ts[at].Col
	for i := at - 1; i >= 0; i-- {
		t := ts[i]
		if !t.LineStart || t.Col >= col || t.Depth > 0 || t.Text == ")" || t.Text == "]" || t.Text == "}" {
			continue // a continuation line inside brackets is no statement
		}
		col = t.Col
		j := i
		if t.Text == "async" {
			j++
		}
		if j+2 < len(ts) && ts[j].Text == "def" && ts[j+1].Kind == lex.Ident && ts[j+2].Text == "(" {
			return j
		}
		if t.Col <= 1 {
			return -1 // reached the module level
		}
	}
	return -1
}

// exprAt is the expression starting at i, to the end of its logical line.
func exprAt(ts []lex.Token, i int) []lex.Token {
	if i >= len(ts) {
		return nil
	}
	end := i
	for end < len(ts) && (end == i || !ts[end].LineStart || ts[end].Depth > ts[i].Depth) {
		if ts[end].Text == "(" || ts[end].Text == "[" || ts[end].Text == "{" {
			end = fold.Closing(ts, end)
		}
		end++
	}
	return ts[i:min(end, len(ts))]
}

// branches splits a conditional expression (A if C else B) into the
// values it may take.
func branches(ts []lex.Token) [][]lex.Token {
	for k, t := range ts {
		if t.Text == "if" && t.Depth == ts[0].Depth {
			for e := k + 1; e < len(ts); e++ {
				if ts[e].Text == "else" && ts[e].Depth == ts[0].Depth {
					return append([][]lex.Token{ts[:k]}, branches(ts[e+1:])...)
				}
			}
		}
	}
	return [][]lex.Token{ts}
}

// docAssignments reads NAME.__doc__ = "…" after a tool's registration:
// the handler's docstring, which FastMCP serves as the description,
// replaced at run time (a rug pull where the new text is in the file).
func (p *pyFile) docAssignments(tools map[string]int) {
	ts := p.f.Toks
	for i := 0; i+4 < len(ts); i++ {
		if ts[i].Kind != lex.Ident || ts[i+1].Text != "." || ts[i+2].Text != "__doc__" || ts[i+3].Text != "=" {
			continue
		}
		k, ok := tools[ts[i].Text]
		if !ok {
			continue
		}
		t := p.s.Tools[k]
		site := Site{File: p.src.Path, Line: int(ts[i].Line), Handler: t.Site.Handler}
		desc := p.desc(exprAt(ts, i+4), "tool", t.Name, site)
		if desc != "" && desc != t.Description {
			p.s.Tools = append(p.s.Tools, Tool{Name: t.Name, Title: t.Title, Description: desc, Params: t.Params, Site: site})
		}
	}
}
