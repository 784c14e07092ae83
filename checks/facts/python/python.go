// Package python lowers Python source into the flow engine's program form
// (checks/facts/flow). It is a tolerant parser over checks/lex's
// tokens: logical lines and indentation give the blocks, a precedence
// parser the expressions; a construct it cannot read becomes an Other
// expression over its parts, so values still flow through it, and a line
// it gives up on is recorded.
package python

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/lex"
)

// Limits on untrusted input.
const (
	MaxBytes = 4 << 20 // source lowered per file; the rest is recorded as not read
	MaxDepth = 200     // nesting of expressions and blocks
)

// Version is the producer's version; it enters the catalog entry of every
// check that uses it.
const Version = "1.0.0"

type line struct {
	toks   []lex.Token
	indent int32
}

// Lower parses src as Python. Line numbers are offset by lineBase (the
// line before the code's first, for code inside a document).
func Lower(path, src string, lineBase int32) *flow.Unit {
	u := &flow.Unit{Path: path, Lang: "python", Top: &flow.Func{Name: ""}}
	if len(src) > MaxBytes {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "Python source past the first 4 MiB not analysed"})
		src = src[:MaxBytes]
	}
	toks := lex.Code(lex.Python(src))
	if lineBase != 0 {
		for i := range toks {
			toks[i].Line += lineBase
		}
	}
	p := &parser{u: u, src: src, lineBase: lineBase}
	lines := p.logicalLines(toks)
	i := 0
	u.Top.Body = p.block(lines, &i, -1, 0)
	return u
}

type parser struct {
	u        *flow.Unit
	src      string
	lineBase int32
	cont     map[int32]bool // lines ending in a backslash
}

// logicalLines splits tokens into logical lines: a new one starts at a
// token on a later line than the previous token ended, outside brackets,
// unless the previous line ended with a backslash; and at ";".
func (p *parser) logicalLines(toks []lex.Token) []line {
	p.cont = map[int32]bool{}
	n := int32(1)
	for i := 0; i < len(p.src); i++ {
		if p.src[i] == '\n' {
			j := i - 1
			for j >= 0 && (p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\r') {
				j--
			}
			if j >= 0 && p.src[j] == '\\' {
				p.cont[n+p.lineBase] = true
			}
			n++
		}
	}
	var out []line
	var cur []lex.Token
	endLine := int32(-1)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, line{toks: cur, indent: cur[0].Col})
		}
		cur = nil
	}
	for _, t := range toks {
		if t.Depth == 0 && len(cur) > 0 && t.Line > endLine && !p.cont[endLine] && !closer(t) {
			flush()
		}
		if t.Depth == 0 && t.Kind == lex.Punct && t.Text == ";" {
			flush()
			continue
		}
		cur = append(cur, t)
		endLine = t.Line + int32(strings.Count(t.Text, "\n"))
	}
	flush()
	return out
}

var compound = map[string]bool{"if": true, "elif": true, "else": true, "for": true, "while": true, "with": true, "try": true,
	"except": true, "finally": true, "def": true, "class": true, "async": true, "match": true, "case": true}

// headerColon is the index of the colon that ends a compound statement's
// header, or -1.
func headerColon(ts []lex.Token) int {
	if len(ts) == 0 || ts[0].Kind != lex.Ident || !compound[ts[0].Text] {
		return -1
	}
	base := ts[0].Depth
	lambdas := 0
	for i, t := range ts {
		if t.Kind == lex.Ident && t.Text == "lambda" && t.Depth == base {
			lambdas++
		}
		if t.Kind == lex.Punct && t.Text == ":" && t.Depth == base {
			if lambdas > 0 {
				lambdas--
				continue
			}
			return i
		}
	}
	return -1
}

// block parses lines from *i while they are indented deeper than parent.
func (p *parser) block(lines []line, i *int, parent int32, depth int) []*flow.Stmt {
	var out []*flow.Stmt
	var decorators []*flow.Expr
	indent := int32(-1)
	for *i < len(lines) {
		ln := lines[*i]
		if ln.indent <= parent {
			break
		}
		if indent < 0 {
			indent = ln.indent
		} else if ln.indent > indent {
			// an unexpected deeper line: read it as part of this block
		} else if ln.indent < indent {
			break
		}
		*i++
		ts := ln.toks
		if ts[0].Text == "@" {
			decorators = append(decorators, p.expr(ts[1:], depth))
			continue
		}
		out = append(out, p.statement(ts, lines, i, ln.indent, depth, decorators)...)
		decorators = nil
	}
	return out
}

// statement lowers one logical line (and the block it heads).
func (p *parser) statement(ts []lex.Token, lines []line, i *int, indent int32, depth int, decorators []*flow.Expr) []*flow.Stmt {
	if depth > MaxDepth {
		p.u.Unresolved = append(p.u.Unresolved, flow.Note{Line: ts[0].Line, What: "Python nested too deeply to follow"})
		return nil
	}
	if c := headerColon(ts); c >= 0 {
		head, rest := ts[:c], ts[c+1:]
		var body []*flow.Stmt
		if len(rest) > 0 {
			body = p.simple(rest, depth+1)
		} else {
			body = p.block(lines, i, indent, depth+1)
		}
		return []*flow.Stmt{p.compoundStmt(head, body, depth, decorators)}
	}
	return p.simple(ts, depth)
}

func at(t lex.Token) (int32, int32) { return t.Line, t.Col }

func (p *parser) compoundStmt(head []lex.Token, body []*flow.Stmt, depth int, decorators []*flow.Expr) *flow.Stmt {
	kw := head[0].Text
	l, c := at(head[0])
	if kw == "async" && len(head) > 1 {
		head = head[1:]
		kw = head[0].Text
	}
	switch kw {
	case "def":
		f := &flow.Func{Line: l, Decorators: decorators, Body: body}
		if len(head) > 1 {
			f.Name = head[1].Text
		}
		if op := indexOf(head, "("); op >= 0 {
			cl := closing(head, op)
			f.Params = p.params(head[op+1:cl], depth)
		}
		return &flow.Stmt{Op: flow.Def, Fn: f, Line: l, Col: c}
	case "class":
		f := &flow.Func{Line: l, Body: body}
		if len(head) > 1 {
			f.Name = head[1].Text
		}
		for _, m := range body {
			if m.Op == flow.Def {
				m.Fn.Class = f.Name
			}
		}
		if op := indexOf(head, "("); op >= 0 {
			cl := closing(head, op)
			for _, a := range splitTop(head[op+1 : cl]) {
				if len(a) > 0 && !(len(a) > 1 && a[1].Text == "=") {
					f.Decorators = append(f.Decorators, p.expr(a, depth))
				}
			}
		}
		return &flow.Stmt{Op: flow.Class, Fn: f, Line: l, Col: c}
	case "for":
		in := indexWord(head, "in")
		if in < 0 {
			return &flow.Stmt{Op: flow.Block, Body: body, Line: l, Col: c}
		}
		return &flow.Stmt{Op: flow.For, Dst: p.targets(head[1:in], depth), Val: p.expr(head[in+1:], depth), Body: body, Line: l, Col: c}
	case "while":
		return &flow.Stmt{Op: flow.While, Val: p.expr(head[1:], depth), Body: body, Line: l, Col: c}
	case "with":
		// with a as b, c as d: nested withs
		items := splitTop(head[1:])
		if len(items) == 1 && len(items[0]) > 0 && items[0][0].Text == "(" {
			items = splitTop(items[0][1:closing(items[0], 0)])
		}
		out := body
		for j := len(items) - 1; j >= 0; j-- {
			it := items[j]
			s := &flow.Stmt{Op: flow.With, Body: out, Line: l, Col: c}
			if as := indexWord(it, "as"); as >= 0 {
				s.Val = p.expr(it[:as], depth)
				s.Dst = p.targets(it[as+1:], depth)
			} else {
				s.Val = p.expr(it, depth)
			}
			out = []*flow.Stmt{s}
		}
		return out[0]
	case "if", "elif", "match", "case":
		return &flow.Stmt{Op: flow.Block, Val: p.expr(head[1:], depth), Body: body, Line: l, Col: c}
	case "except":
		s := &flow.Stmt{Op: flow.Block, Body: body, Line: l, Col: c}
		if as := indexWord(head, "as"); as >= 0 {
			s.Body = append([]*flow.Stmt{{Op: flow.Assign, Dst: p.targets(head[as+1:], depth), Val: &flow.Expr{Op: flow.Other, Line: l}, Line: l}}, body...)
		}
		return s
	}
	return &flow.Stmt{Op: flow.Block, Body: body, Line: l, Col: c}
}

// simple lowers a simple statement.
func (p *parser) simple(ts []lex.Token, depth int) []*flow.Stmt {
	if len(ts) == 0 {
		return nil
	}
	l, c := at(ts[0])
	if ts[0].Kind == lex.Ident {
		switch ts[0].Text {
		case "import":
			for _, part := range splitTop(ts[1:]) {
				mod, local := dotted(part)
				if as := indexWord(part, "as"); as >= 0 && as+1 < len(part) {
					local = part[as+1].Text
				} else {
					local, _, _ = strings.Cut(mod, ".")
					// "import a.b" binds a to the package a
					p.u.Imports = append(p.u.Imports, flow.Import{Local: local, Module: local, Line: l})
					if mod != local {
						continue
					}
					continue
				}
				p.u.Imports = append(p.u.Imports, flow.Import{Local: local, Module: mod, Line: l})
			}
			return nil
		case "from":
			imp := indexWord(ts, "import")
			if imp < 0 {
				return nil
			}
			mod, _ := dotted(ts[1:imp])
			names := ts[imp+1:]
			if len(names) > 0 && names[0].Text == "(" {
				names = names[1:closing(names, 0)]
			}
			for _, part := range splitTop(names) {
				if len(part) == 0 {
					continue
				}
				member := part[0].Text
				local := member
				if as := indexWord(part, "as"); as >= 0 && as+1 < len(part) {
					local = part[as+1].Text
				}
				p.u.Imports = append(p.u.Imports, flow.Import{Local: local, Module: mod, Member: member, Line: l})
			}
			return nil
		case "return", "yield":
			s := &flow.Stmt{Op: flow.Return, Line: l, Col: c}
			rest := ts[1:]
			if len(rest) > 0 && rest[0].Text == "from" {
				rest = rest[1:]
			}
			if len(rest) > 0 {
				s.Val = p.expr(rest, depth)
			}
			return []*flow.Stmt{s}
		case "pass", "break", "continue", "global", "nonlocal":
			return nil
		case "raise", "assert", "del", "print", "exec", "await":
			if ts[0].Text == "exec" || ts[0].Text == "print" {
				if len(ts) > 1 && ts[1].Text != "(" && ts[1].Text != "=" {
					// Python 2 statements: exec code, print x
					call := &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Name, S: ts[0].Text, Line: l, Col: c}, Args: []*flow.Expr{p.expr(ts[1:], depth)}, Keys: []string{""}, Line: l, Col: c}
					return []*flow.Stmt{{Op: flow.Eval, Val: call, Line: l, Col: c}}
				}
				break
			}
			if len(ts) > 1 {
				return []*flow.Stmt{{Op: flow.Eval, Val: p.expr(ts[1:], depth), Line: l, Col: c}}
			}
			return nil
		}
	}
	// assignment chains a = b = value, augmented a += value, annotated a: T = value
	var eqs []int
	for j, t := range ts {
		if t.Depth == ts[0].Depth && t.Kind == lex.Punct {
			switch t.Text {
			case "=":
				eqs = append(eqs, j)
			case "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "@=":
				if len(eqs) == 0 {
					return []*flow.Stmt{{Op: flow.Aug, Dst: p.targets(ts[:j], depth), Val: p.expr(ts[j+1:], depth), Line: l, Col: c}}
				}
			}
		}
	}
	if len(eqs) > 0 {
		s := &flow.Stmt{Op: flow.Assign, Line: l, Col: c, Val: p.expr(ts[eqs[len(eqs)-1]+1:], depth)}
		start := 0
		for _, q := range eqs {
			tgt := ts[start:q]
			if colon := indexTop(tgt, ":"); colon >= 0 {
				tgt = tgt[:colon] // an annotation
			}
			s.Dst = append(s.Dst, p.targets(tgt, depth)...)
			start = q + 1
		}
		return []*flow.Stmt{s}
	}
	if colon := indexTop(ts, ":"); colon > 0 && colon == len(ts)-1 || colon > 0 && ts[0].Kind == lex.Ident && colon == 1 {
		return nil // a bare annotation
	}
	return []*flow.Stmt{{Op: flow.Eval, Val: p.expr(ts, depth), Line: l, Col: c}}
}

func (p *parser) targets(ts []lex.Token, depth int) []*flow.Expr {
	parts := splitTop(ts)
	if len(parts) > 1 {
		l := &flow.Expr{Op: flow.List}
		for _, part := range parts {
			if len(part) > 0 {
				l.Args = append(l.Args, p.expr(part, depth))
			}
		}
		return []*flow.Expr{l}
	}
	if len(ts) == 0 {
		return nil
	}
	return []*flow.Expr{p.expr(ts, depth)}
}

func (p *parser) params(ts []lex.Token, depth int) []flow.Param {
	var out []flow.Param
	for _, part := range splitTop(ts) {
		if len(part) == 0 {
			continue
		}
		rest := false
		for len(part) > 0 && (part[0].Text == "*" || part[0].Text == "**") {
			rest = true
			part = part[1:]
		}
		if len(part) == 0 || part[0].Kind != lex.Ident {
			continue
		}
		pr := flow.Param{Name: part[0].Text, Rest: rest}
		if eq := indexTop(part, "="); eq >= 0 {
			pr.Default = p.expr(part[eq+1:], depth)
		}
		out = append(out, pr)
	}
	return out
}

// --- token helpers

func indexOf(ts []lex.Token, text string) int {
	for i, t := range ts {
		if t.Kind == lex.Punct && t.Text == text {
			return i
		}
	}
	return -1
}

// indexTop is the first punctuation text at the slice's own depth.
func indexTop(ts []lex.Token, text string) int {
	if len(ts) == 0 {
		return -1
	}
	d := ts[0].Depth
	for i, t := range ts {
		if t.Kind == lex.Punct && t.Text == text && t.Depth == d {
			return i
		}
	}
	return -1
}

func indexWord(ts []lex.Token, w string) int {
	if len(ts) == 0 {
		return -1
	}
	d := ts[0].Depth
	for i, t := range ts {
		if t.Kind == lex.Ident && t.Text == w && t.Depth == d {
			return i
		}
	}
	return -1
}

// closing is the index of the bracket closing ts[open], or len(ts).
func closing(ts []lex.Token, open int) int {
	// A closing bracket carries its opener's depth; everything between
	// them is deeper.
	d := ts[open].Depth
	for i := open + 1; i < len(ts); i++ {
		if ts[i].Depth <= d {
			return i
		}
	}
	return len(ts)
}

// splitTop splits on commas at the slice's own depth.
func splitTop(ts []lex.Token) [][]lex.Token {
	if len(ts) == 0 {
		return nil
	}
	d := ts[0].Depth
	var out [][]lex.Token
	start := 0
	for i, t := range ts {
		if t.Kind == lex.Punct && t.Text == "," && t.Depth == d {
			out = append(out, ts[start:i])
			start = i + 1
		}
	}
	if start < len(ts) {
		out = append(out, ts[start:])
	}
	return out
}

func dotted(ts []lex.Token) (string, string) {
	var b strings.Builder
	for _, t := range ts {
		if t.Kind == lex.Ident && (t.Text == "as" || t.Text == "import") {
			break
		}
		b.WriteString(t.Text)
	}
	s := b.String()
	last := s
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		last = s[i+1:]
	}
	return s, last
}

// --- string literals

// Literal decodes a Python string literal token: prefixes, quotes and
// escapes. For an f-string it returns the parts: literal text and the
// source of each replacement field.
func Literal(raw string) (string, bool) {
	i := 0
	for i < len(raw) && raw[i] != '"' && raw[i] != '\'' {
		i++
	}
	prefix := strings.ToLower(raw[:i])
	body := raw[i:]
	q := ""
	for _, x := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(body, x) {
			q = x
			break
		}
	}
	if q == "" {
		return "", false
	}
	body = strings.TrimPrefix(body, q)
	body = strings.TrimSuffix(body, q)
	if strings.Contains(prefix, "r") {
		return body, true
	}
	return unescape(body, strings.Contains(prefix, "b")), true
}

func unescape(s string, bytesLit bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := s[i]; d {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			writeCode(&b, rune(n), bytesLit)
			i = j - 1
		case 'x':
			if i+2 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+3], 16, 32); err == nil {
					writeCode(&b, rune(n), bytesLit)
					i += 2
					continue
				}
			}
			b.WriteString(`\x`)
		case 'u', 'U':
			w := 4
			if d == 'U' {
				w = 8
			}
			if !bytesLit && i+w < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+1+w], 16, 32); err == nil && utf8.ValidRune(rune(n)) {
					b.WriteRune(rune(n))
					i += w
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(d)
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(d)
		default:
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return b.String()
}

func writeCode(b *strings.Builder, r rune, bytesLit bool) {
	if bytesLit || r < 0x80 {
		b.WriteByte(byte(r))
		return
	}
	b.WriteRune(r)
}

func closer(t lex.Token) bool {
	return t.Kind == lex.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}")
}
