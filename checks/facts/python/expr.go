package python

import (
	"strings"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/lex"
)

// exprParser is a precedence parser over one expression's tokens.
type exprParser struct {
	p     *parser
	ts    []lex.Token
	i     int
	depth int
}

func (p *parser) expr(ts []lex.Token, depth int) *flow.Expr {
	if len(ts) == 0 {
		return &flow.Expr{Op: flow.Other}
	}
	e := &exprParser{p: p, ts: ts, depth: depth}
	x := e.tuple()
	if e.i < len(e.ts) {
		// what the parser could not place still carries values
		rest := p.expr(e.ts[e.i:], depth+1)
		x = &flow.Expr{Op: flow.Other, Args: []*flow.Expr{x, rest}, Line: x.Line, Col: x.Col}
	}
	return x
}

func (e *exprParser) peek() *lex.Token {
	if e.i < len(e.ts) {
		return &e.ts[e.i]
	}
	return nil
}

func (e *exprParser) is(text string) bool {
	t := e.peek()
	return t != nil && (t.Kind == lex.Punct || t.Kind == lex.Ident) && t.Text == text
}

func (e *exprParser) pos() (int32, int32) {
	if t := e.peek(); t != nil {
		return t.Line, t.Col
	}
	if len(e.ts) > 0 {
		t := e.ts[len(e.ts)-1]
		return t.Line, t.Col
	}
	return 0, 0
}

// tuple is a comma-separated list at the top level (a bare tuple).
func (e *exprParser) tuple() *flow.Expr {
	l, c := e.pos()
	first := e.ternary()
	if !e.is(",") {
		return first
	}
	t := &flow.Expr{Op: flow.List, Args: []*flow.Expr{first}, Line: l, Col: c}
	for e.is(",") {
		e.i++
		if e.peek() == nil || e.is(")") || e.is("]") || e.is("}") || e.is("=") {
			break
		}
		t.Args = append(t.Args, e.ternary())
	}
	return t
}

func (e *exprParser) ternary() *flow.Expr {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > MaxDepth {
		e.i = len(e.ts)
		return &flow.Expr{Op: flow.Other}
	}
	if e.is("lambda") {
		return e.lambda()
	}
	if e.is("yield") {
		e.i++
		if e.is("from") {
			e.i++
		}
		if e.peek() == nil || e.is(")") {
			return &flow.Expr{Op: flow.Other}
		}
		return e.ternary()
	}
	x := e.binary(0)
	if e.is("if") {
		l, c := e.pos()
		e.i++
		cond := e.binary(0)
		var alt *flow.Expr
		if e.is("else") {
			e.i++
			alt = e.ternary()
		}
		_ = cond
		args := []*flow.Expr{x}
		if alt != nil {
			args = append(args, alt)
		}
		return &flow.Expr{Op: flow.Other, Args: args, Line: l, Col: c}
	}
	if e.is(":=") {
		e.i++
		return e.ternary()
	}
	return x
}

func (e *exprParser) lambda() *flow.Expr {
	l, c := e.pos()
	e.i++
	start := e.i
	for e.i < len(e.ts) && !(e.is(":") && e.ts[e.i].Depth == e.ts[start-1].Depth) {
		e.i++
	}
	f := &flow.Func{Name: "<lambda>", Line: l, Params: e.p.params(e.ts[start:e.i], e.depth)}
	if e.i < len(e.ts) {
		e.i++
	}
	body := e.ternary()
	f.Body = []*flow.Stmt{{Op: flow.Return, Val: body, Line: l, Col: c}}
	return &flow.Expr{Op: flow.Lambda, Fn: f, Line: l, Col: c}
}

// binary operators by precedence, lowest first.
var levels = [][]string{
	{"or"}, {"and"}, {"not"},
	{"in", "not in", "is", "is not", "<", ">", "==", ">=", "<=", "!=", "<>"},
	{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"},
}

func (e *exprParser) binary(level int) *flow.Expr {
	if level >= len(levels) {
		return e.unary()
	}
	if levels[level][0] == "not" {
		if e.is("not") {
			l, c := e.pos()
			e.i++
			return &flow.Expr{Op: flow.Other, Args: []*flow.Expr{e.binary(level)}, Line: l, Col: c}
		}
		return e.binary(level + 1)
	}
	x := e.binary(level + 1)
	for {
		op := e.op(levels[level])
		if op == "" {
			return x
		}
		l, c := e.pos()
		y := e.binary(level + 1)
		x = &flow.Expr{Op: flow.Bin, S: op, Args: []*flow.Expr{x, y}, Line: l, Col: c}
	}
}

// op consumes one of ops at the cursor ("not in" and "is not" are two
// tokens; "//" is two "/" tokens).
func (e *exprParser) op(ops []string) string {
	t := e.peek()
	if t == nil {
		return ""
	}
	for _, o := range ops {
		switch o {
		case "not in":
			if t.Text == "not" && e.i+1 < len(e.ts) && e.ts[e.i+1].Text == "in" {
				e.i += 2
				return o
			}
		case "is not":
			if t.Text == "is" && e.i+1 < len(e.ts) && e.ts[e.i+1].Text == "not" {
				e.i += 2
				return o
			}
		case "//":
			if t.Text == "/" && e.i+1 < len(e.ts) && e.ts[e.i+1].Text == "/" {
				e.i += 2
				return o
			}
		default:
			if t.Text == o && (t.Kind == lex.Punct || t.Kind == lex.Ident) {
				if o == "/" && e.i+1 < len(e.ts) && e.ts[e.i+1].Text == "/" {
					continue
				}
				e.i++
				return o
			}
		}
	}
	return ""
}

func (e *exprParser) unary() *flow.Expr {
	if e.is("-") || e.is("+") || e.is("~") || e.is("await") || e.is("*") || e.is("**") {
		l, c := e.pos()
		e.i++
		return &flow.Expr{Op: flow.Other, Args: []*flow.Expr{e.unary()}, Line: l, Col: c}
	}
	x := e.postfix(e.primary())
	if e.is("*") && e.i+1 < len(e.ts) && e.ts[e.i+1].Text == "*" {
		e.i += 2
		y := e.unary()
		return &flow.Expr{Op: flow.Bin, S: "**", Args: []*flow.Expr{x, y}}
	}
	return x
}

func (e *exprParser) postfix(x *flow.Expr) *flow.Expr {
	for e.i < len(e.ts) {
		t := e.ts[e.i]
		switch {
		case t.Kind == lex.Punct && t.Text == ".":
			e.i++
			if n := e.peek(); n != nil && n.Kind == lex.Ident {
				e.i++
				x = &flow.Expr{Op: flow.Attr, X: x, S: n.Text, Line: n.Line, Col: n.Col}
			}
		case t.Kind == lex.Punct && t.Text == "(":
			cl := closing(e.ts, e.i)
			x = e.call(x, e.ts[e.i+1:cl], t)
			e.i = min(cl+1, len(e.ts))
		case t.Kind == lex.Punct && t.Text == "[":
			cl := closing(e.ts, e.i)
			inner := e.ts[e.i+1 : cl]
			var key *flow.Expr
			if sliceText(inner) == "::-1" {
				// s[::-1] is s reversed
				x = &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Name, S: "reversed", Line: t.Line, Col: t.Col}, Args: []*flow.Expr{x}, Keys: []string{""}, Line: t.Line, Col: t.Col}
				e.i = min(cl+1, len(e.ts))
				continue
			}
			if c := indexTop(inner, ":"); c >= 0 {
				key = &flow.Expr{Op: flow.Other, Args: []*flow.Expr{e.p.expr(inner[:c], e.depth+1)}}
			} else {
				key = e.p.expr(inner, e.depth+1)
			}
			x = &flow.Expr{Op: flow.Index, X: x, Args: []*flow.Expr{key}, Line: t.Line, Col: t.Col}
			e.i = min(cl+1, len(e.ts))
		default:
			return x
		}
	}
	return x
}

func (e *exprParser) call(fn *flow.Expr, inner []lex.Token, open lex.Token) *flow.Expr {
	c := &flow.Expr{Op: flow.Call, X: fn, Line: fn.Line, Col: fn.Col}
	if c.Line == 0 {
		c.Line, c.Col = open.Line, open.Col
	}
	if comp := e.comprehension(inner, open); comp != nil {
		c.Args, c.Keys = []*flow.Expr{comp}, []string{""}
		return c
	}
	for _, a := range splitTop(inner) {
		if len(a) == 0 {
			continue
		}
		key := ""
		switch {
		case a[0].Text == "**" || a[0].Text == "*" && len(a) > 1 && a[1].Text == "*":
			key = "**"
			a = strip(a, "*")
		case a[0].Text == "*":
			key = "*"
			a = a[1:]
		case len(a) > 2 && a[0].Kind == lex.Ident && a[1].Kind == lex.Punct && a[1].Text == "=":
			key = a[0].Text
			a = a[2:]
		}
		c.Args = append(c.Args, e.p.expr(a, e.depth+1))
		c.Keys = append(c.Keys, key)
	}
	return c
}

func strip(a []lex.Token, t string) []lex.Token {
	for len(a) > 0 && a[0].Text == t {
		a = a[1:]
	}
	return a
}

// comprehension lowers "elem for x in it [if c]..." as a function of x
// called with any element of it.
func (e *exprParser) comprehension(inner []lex.Token, open lex.Token) *flow.Expr {
	f := indexWord(inner, "for")
	if f <= 0 {
		return nil
	}
	in := -1
	for j := f + 1; j < len(inner); j++ {
		if inner[j].Kind == lex.Ident && inner[j].Text == "in" && inner[j].Depth == inner[0].Depth {
			in = j
			break
		}
	}
	if in < 0 {
		return nil
	}
	end := len(inner)
	for j := in + 1; j < len(inner); j++ {
		if inner[j].Kind == lex.Ident && (inner[j].Text == "if" || inner[j].Text == "for") && inner[j].Depth == inner[0].Depth {
			end = j
			break
		}
	}
	elemToks := inner[:f]
	var elem *flow.Expr
	if colon := indexTop(elemToks, ":"); colon >= 0 { // a dict comprehension
		elem = &flow.Expr{Op: flow.Other, Args: []*flow.Expr{e.p.expr(elemToks[:colon], e.depth+1), e.p.expr(elemToks[colon+1:], e.depth+1)}}
	} else {
		elem = e.p.expr(elemToks, e.depth+1)
	}
	l, c := open.Line, open.Col
	fn := &flow.Func{Name: "<comprehension>", Line: l, Params: []flow.Param{{Name: "\x00it"}}}
	fn.Body = []*flow.Stmt{
		{Op: flow.Assign, Dst: e.p.targets(inner[f+1:in], e.depth+1), Val: &flow.Expr{Op: flow.Name, S: "\x00it", Line: l}, Line: l, Col: c},
	}
	if end < len(inner) && inner[end].Text == "for" {
		// a nested for: lower the rest as the element
		rest := append(append([]lex.Token(nil), elemToks...), inner[end:]...)
		inner2 := e.comprehension(rest, open)
		if inner2 != nil {
			elem = &flow.Expr{Op: flow.Elem, X: inner2}
		}
	}
	fn.Body = append(fn.Body, &flow.Stmt{Op: flow.Return, Val: elem, Line: l, Col: c})
	it := e.p.expr(inner[in+1:end], e.depth+1)
	return &flow.Expr{Op: flow.Comp, X: it, Fn: fn, Line: l, Col: c}
}

func (e *exprParser) primary() *flow.Expr {
	t := e.peek()
	if t == nil {
		return &flow.Expr{Op: flow.Other}
	}
	l, c := t.Line, t.Col
	switch t.Kind {
	case lex.Ident:
		e.i++
		switch t.Text {
		case "True", "False", "None":
			return &flow.Expr{Op: flow.Num, S: t.Text, Line: l, Col: c}
		}
		return &flow.Expr{Op: flow.Name, S: t.Text, Line: l, Col: c}
	case lex.Number:
		e.i++
		return &flow.Expr{Op: flow.Num, S: t.Text, Line: l, Col: c}
	case lex.String:
		return e.strings()
	case lex.Punct:
		switch t.Text {
		case "(", "[", "{":
			cl := closing(e.ts, e.i)
			inner := e.ts[e.i+1 : cl]
			e.i = min(cl+1, len(e.ts))
			return e.bracket(t.Text, inner, *t)
		}
	}
	e.i++
	return &flow.Expr{Op: flow.Other, Line: l, Col: c}
}

func (e *exprParser) bracket(open string, inner []lex.Token, t lex.Token) *flow.Expr {
	l, c := t.Line, t.Col
	if comp := e.comprehension(inner, t); comp != nil {
		// a set or dict comprehension too: what it builds carries its
		// elements ({k: v for k, v in os.environ.items()})
		return comp
	}
	parts := splitTop(inner)
	if open == "(" && len(parts) == 1 && (len(inner) == 0 || inner[len(inner)-1].Text != ",") {
		if len(inner) == 0 {
			return &flow.Expr{Op: flow.List, Line: l, Col: c}
		}
		return e.p.expr(inner, e.depth+1)
	}
	if open == "{" && len(inner) > 0 && (indexTop(inner, ":") >= 0 || inner[0].Text == "**") {
		d := &flow.Expr{Op: flow.Dict, Line: l, Col: c}
		for _, part := range parts {
			if len(part) == 0 {
				continue
			}
			if part[0].Text == "**" || part[0].Text == "*" {
				d.Keys = append(d.Keys, "**")
				d.Args = append(d.Args, e.p.expr(strip(part, "*"), e.depth+1))
				continue
			}
			colon := indexTop(part, ":")
			if colon < 0 {
				continue
			}
			key := ""
			if colon == 1 && part[0].Kind == lex.String {
				key, _ = Literal(part[0].Text)
			}
			d.Keys = append(d.Keys, key)
			d.Args = append(d.Args, e.p.expr(part[colon+1:], e.depth+1))
		}
		return d
	}
	lst := &flow.Expr{Op: flow.List, Line: l, Col: c}
	for _, part := range parts {
		if len(part) == 0 {
			continue
		}
		if part[0].Text == "*" {
			lst.Args = append(lst.Args, &flow.Expr{Op: flow.Elem, X: e.p.expr(part[1:], e.depth+1)})
			continue
		}
		lst.Args = append(lst.Args, e.p.expr(part, e.depth+1))
	}
	return lst
}

// strings reads adjacent string literals (implicitly concatenated), with
// f-string fields parsed as expressions.
func (e *exprParser) strings() *flow.Expr {
	t := e.peek()
	l, c := t.Line, t.Col
	var parts []*flow.Expr
	for e.i < len(e.ts) && e.ts[e.i].Kind == lex.String {
		tok := e.ts[e.i]
		e.i++
		if isFString(tok.Text) {
			parts = append(parts, e.fstring(tok)...)
			continue
		}
		s, _ := Literal(tok.Text)
		parts = append(parts, &flow.Expr{Op: flow.Str, S: s, Line: tok.Line, Col: tok.Col})
	}
	if len(parts) == 1 {
		return parts[0]
	}
	all := true
	var b strings.Builder
	for _, p := range parts {
		if p.Op != flow.Str {
			all = false
			break
		}
		b.WriteString(p.S)
	}
	if all {
		return &flow.Expr{Op: flow.Str, S: b.String(), Line: l, Col: c}
	}
	return &flow.Expr{Op: flow.Fmt, Args: parts, Line: l, Col: c}
}

func isFString(raw string) bool {
	i := strings.IndexAny(raw, `"'`)
	return i > 0 && strings.ContainsAny(strings.ToLower(raw[:i]), "f")
}

// fstring splits an f-string into literal parts and field expressions.
func (e *exprParser) fstring(tok lex.Token) []*flow.Expr {
	raw := tok.Text
	i := strings.IndexAny(raw, `"'`)
	prefix := strings.ToLower(raw[:i])
	body := raw[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(body, q) && strings.HasSuffix(body, q) && len(body) >= 2*len(q) {
			body = body[len(q) : len(body)-len(q)]
			break
		}
	}
	raw2 := strings.Contains(prefix, "r")
	var out []*flow.Expr
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			s := lit.String()
			if !raw2 {
				s = unescape(s, false)
			}
			out = append(out, &flow.Expr{Op: flow.Str, S: s, Line: tok.Line, Col: tok.Col})
			lit.Reset()
		}
	}
	for j := 0; j < len(body); j++ {
		ch := body[j]
		if ch == '{' && j+1 < len(body) && body[j+1] == '{' {
			lit.WriteByte('{')
			j++
			continue
		}
		if ch == '}' && j+1 < len(body) && body[j+1] == '}' {
			lit.WriteByte('}')
			j++
			continue
		}
		if ch != '{' {
			lit.WriteByte(ch)
			continue
		}
		depth, k := 1, j+1
		for k < len(body) && depth > 0 {
			switch body[k] {
			case '{':
				depth++
			case '}':
				depth--
			}
			k++
		}
		field := body[j+1 : max(j+1, k-1)]
		// drop a conversion and a format spec
		if x := strings.LastIndex(field, "!"); x > 0 && x >= len(field)-2 {
			field = field[:x]
		}
		if x := topColon(field); x > 0 {
			field = field[:x]
		}
		flushLit()
		if e.depth < MaxDepth {
			sub := Lower(e.p.u.Path, field, tok.Line-1)
			if len(sub.Top.Body) > 0 && sub.Top.Body[0].Val != nil {
				out = append(out, sub.Top.Body[0].Val)
			}
		}
		j = k - 1
	}
	flushLit()
	return out
}

// topColon is the index of a format-spec colon outside brackets and
// strings, or -1.
func topColon(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ':' && depth == 0:
			return i
		}
	}
	return -1
}

// sliceText is a subscript's tokens run together ("::-1").
func sliceText(ts []lex.Token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Text)
	}
	return b.String()
}
