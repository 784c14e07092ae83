package js

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/lex"
)

// --- cursor

func (p *parser) peek() *lex.Token {
	if p.i < p.end {
		return &p.ts[p.i]
	}
	return nil
}

func (p *parser) peekAt(k int) *lex.Token {
	if j := p.i + k; j >= 0 && j < p.end {
		return &p.ts[j]
	}
	return nil
}

// isAt says whether the token k ahead is the punctuation or word text.
func (p *parser) isAt(k int, text string) bool {
	t := p.peekAt(k)
	return t != nil && (t.Kind == lex.Punct || t.Kind == lex.Ident) && t.Text == text
}

func (p *parser) punct(text string) bool {
	t := p.peek()
	return t != nil && t.Kind == lex.Punct && t.Text == text
}

func (p *parser) word(text string) bool {
	t := p.peek()
	return t != nil && t.Kind == lex.Ident && t.Text == text
}

func (p *parser) eat(text string) bool {
	if p.isAt(0, text) {
		p.i++
		return true
	}
	return false
}

// lineBreak says whether a line break comes before the current token.
func (p *parser) lineBreak() bool { return p.i < p.end && p.nl[p.i] }

func (p *parser) pos() (int32, int32) {
	if t := p.peek(); t != nil {
		return t.Line, t.Col
	}
	if p.i > 0 && p.i-1 < len(p.ts) {
		return p.ts[p.i-1].Line, p.ts[p.i-1].Col
	}
	return 0, 0
}

// inside parses the contents of the bracket at the cursor with f, then
// moves past its closer, whatever f left unread.
func (p *parser) inside(f func()) {
	open := p.i
	if open >= p.end {
		return
	}
	cl := min(int(p.match[open]), p.end)
	end, noIn := p.end, p.noIn
	p.i, p.end, p.noIn = open+1, cl, false
	f()
	p.i, p.end, p.noIn = min(cl+1, end), end, noIn
}

// skipItem moves past one token, or one bracket and its contents.
func (p *parser) skipItem() {
	if t := p.peek(); t != nil && t.Kind == lex.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
		p.i = min(int(p.match[p.i])+1, p.end)
		return
	}
	p.i++
}

// skipToComma drops what is left of a list item.
func (p *parser) skipToComma() {
	for p.i < p.end && !p.punct(",") {
		p.skipItem()
	}
}

func (p *parser) emit(s *flow.Stmt) { p.pend = append(p.pend, s) }

// capture returns what f emits instead of emitting it.
func (p *parser) capture(f func()) []*flow.Stmt {
	saved := p.pend
	p.pend = nil
	f()
	out := p.pend
	p.pend = saved
	return out
}

func (p *parser) temp(kind string) string {
	p.tmp++
	return "\x00" + kind + strconv.Itoa(p.tmp)
}

func (p *parser) tooDeep() {
	if !p.deep {
		p.deep = true
		l, _ := p.pos()
		p.u.Unresolved = append(p.u.Unresolved, flow.Note{Line: l, What: "JavaScript nested too deeply to follow"})
	}
	p.i = p.end
}

func other(l, c int32, args ...*flow.Expr) *flow.Expr {
	return &flow.Expr{Op: flow.Other, Args: args, Line: l, Col: c}
}

func name(s string, l, c int32) *flow.Expr { return &flow.Expr{Op: flow.Name, S: s, Line: l, Col: c} }

// unop is a unary operator's value: a Bin of one operand, which the
// engine reads as its operand's taints and nothing else (typeof f is not
// f).
func unop(op string, x *flow.Expr, l, c int32) *flow.Expr {
	return &flow.Expr{Op: flow.Bin, S: op, Args: []*flow.Expr{x}, Line: l, Col: c}
}

// effectful says whether evaluating x can do anything.
func effectful(x *flow.Expr) bool {
	switch x.Op {
	case flow.Name, flow.Str, flow.Num:
		return false
	case flow.Other:
		return len(x.Args) > 0
	}
	return true
}

func hasCall(x *flow.Expr) bool {
	found := false
	flow.Walk(x, func(n *flow.Expr) bool {
		if n.Op == flow.Call {
			found = true
		}
		return !found
	})
	return found
}

// --- expressions

// expression is a comma expression: its value is the last operand's, the
// others are evaluated for their effects.
func (p *parser) expression() *flow.Expr {
	x := p.assign()
	for p.punct(",") && p.i+1 < p.end {
		p.i++
		if effectful(x) && x != p.last {
			p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: x.Line, Col: x.Col})
		}
		x = p.assign()
	}
	return x
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "**=": true,
	"<<=": true, ">>=": true, ">>>=": true, "&=": true, "|=": true, "^=": true, "&&=": true, "||=": true, "??=": true}

// assign is an assignment expression: the assignment is emitted as a
// statement and the expression's value is its target.
func (p *parser) assign() *flow.Expr {
	p.depth++
	defer func() { p.depth-- }()
	t := p.peek()
	if t == nil {
		l, c := p.pos()
		return other(l, c)
	}
	l, c := t.Line, t.Col
	if p.depth > MaxDepth {
		p.tooDeep()
		return other(l, c)
	}
	if f := p.arrow(); f != nil {
		return f
	}
	if t.Kind == lex.Ident && t.Text == "yield" && p.i+1 <= p.end {
		// a generator hands out what it yields, as a function returns
		p.i++
		p.eat("*")
		if n := p.peek(); n != nil && !p.lineBreak() && startsOperand(n) {
			x := p.assign()
			p.emit(&flow.Stmt{Op: flow.Return, Val: x, Line: l, Col: c})
		}
		return other(l, c)
	}
	if (p.punct("{") || p.punct("[")) && int(p.match[p.i])+1 < p.end {
		if n := p.ts[p.match[p.i]+1]; n.Kind == lex.Punct && n.Text == "=" {
			// a destructuring assignment
			pt := p.pattern(false)
			p.i++
			base := p.destructure(pt, p.assign(), l, c)
			p.last = base
			return base
		}
	}
	x := p.conditional()
	op := p.peek()
	if op == nil || op.Kind != lex.Punct || !assignOps[op.Text] {
		return x
	}
	p.i++
	rhs := p.assign()
	s := &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{x}, Val: rhs, Outer: x.Op == flow.Name, Line: l, Col: c}
	switch op.Text {
	case "=":
	case "&&=", "||=", "??=":
		s.Val = &flow.Expr{Op: flow.Bin, S: op.Text[:2], Args: []*flow.Expr{x, rhs}, Line: l, Col: c}
	default:
		s.Op = flow.Aug
	}
	p.emit(s)
	p.last = x
	return x
}

// startsOperand says whether a token can begin an expression.
func startsOperand(t *lex.Token) bool {
	switch t.Kind {
	case lex.Ident, lex.String, lex.Number, lex.Template, lex.Regex:
		return t.Text != "in" && t.Text != "of" && t.Text != "instanceof"
	case lex.Punct:
		switch t.Text {
		case "(", "[", "{", "!", "-", "+", "~", "++", "--", "<", "...", "#", "@":
			return true
		}
	}
	return false
}

func (p *parser) conditional() *flow.Expr {
	x := p.binary(0)
	if !p.punct("?") {
		return x
	}
	l, c := p.pos()
	p.i++
	noIn := p.noIn
	p.noIn = false
	a := p.assign()
	p.noIn = noIn
	args := []*flow.Expr{a}
	if p.eat(":") {
		args = append(args, p.assign())
	}
	if hasCall(x) {
		// the condition runs for its effects; its value is not the result's
		p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: x.Line, Col: x.Col})
	}
	return other(l, c, args...)
}

var binPrec = map[string]int{"??": 1, "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6, "===": 6, "!==": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "instanceof": 7, "in": 7, "as": 7, "satisfies": 7,
	"<<": 8, ">>": 8, ">>>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "**": 11}

func (p *parser) binary(minPrec int) *flow.Expr {
	x := p.unary()
	for {
		t := p.peek()
		if t == nil || t.Kind != lex.Punct && t.Kind != lex.Ident {
			return x
		}
		prec, ok := binPrec[t.Text]
		if !ok || prec < minPrec || t.Kind == lex.Ident && (t.Text == "in" && p.noIn || p.lineBreak()) {
			return x
		}
		if t.Kind == lex.Punct && (t.Text == "in" || t.Text == "as") {
			return x
		}
		l, c := t.Line, t.Col
		p.i++
		if t.Text == "as" || t.Text == "satisfies" {
			p.skipType(true)
			continue
		}
		next := prec + 1
		if t.Text == "**" {
			next = prec
		}
		y := p.binary(next)
		op := t.Text
		// the engine reads "/" and "%" as Python's path join and string
		// format; JavaScript's are arithmetic
		switch op {
		case "/":
			op = "div"
		case "%":
			op = "mod"
		}
		x = &flow.Expr{Op: flow.Bin, S: op, Args: []*flow.Expr{x, y}, Line: l, Col: c}
	}
}

func (p *parser) unary() *flow.Expr {
	p.depth++
	defer func() { p.depth-- }()
	t := p.peek()
	if t == nil {
		l, c := p.pos()
		return other(l, c)
	}
	l, c := t.Line, t.Col
	if p.depth > MaxDepth {
		p.tooDeep()
		return other(l, c)
	}
	switch t.Kind {
	case lex.Punct:
		switch t.Text {
		case "!", "-", "+", "~", "++", "--":
			p.i++
			return unop(t.Text, p.unary(), l, c)
		case "<":
			if p.typed {
				// <T>x, a type assertion
				p.skipAngles()
				return p.unary()
			}
		}
	case lex.Ident:
		switch t.Text {
		case "typeof", "void", "delete":
			if n := p.peekAt(1); n != nil && startsOperand(n) {
				p.i++
				return unop(t.Text, p.unary(), l, c)
			}
		case "await":
			if n := p.peekAt(1); n != nil && startsOperand(n) && !p.nl[p.i+1] {
				p.i++
				return p.unary() // the promise's value is what it carries
			}
		}
	}
	return p.postfix(p.primary(), true)
}

// postfix reads member accesses, calls, tagged templates and the
// non-null assertion after x; calls is false for new's callee.
func (p *parser) postfix(x *flow.Expr, calls bool) *flow.Expr {
	for p.i < p.end {
		t := &p.ts[p.i]
		if t.Kind == lex.Template {
			if !calls {
				return x
			}
			p.i++
			x = &flow.Expr{Op: flow.Call, X: x, Args: []*flow.Expr{p.template(t)}, Keys: []string{""}, Line: x.Line, Col: x.Col}
			continue
		}
		if t.Kind != lex.Punct {
			return x
		}
		switch t.Text {
		case ".", "?.":
			p.i++
			if t.Text == "?." {
				if p.punct("(") {
					x = p.callArgs(x)
					continue
				}
				if p.punct("[") {
					x = p.index(x)
					continue
				}
			}
			n := p.peek()
			switch {
			case n == nil:
				return x
			case n.Kind == lex.Ident:
				p.i++
				x = p.member(x, n.Text, n.Line, n.Col)
			case n.Kind == lex.Punct && n.Text == "#":
				p.i++
				if m := p.peek(); m != nil && m.Kind == lex.Ident {
					p.i++
					x = p.member(x, "#"+m.Text, m.Line, m.Col)
				}
			default:
				return x
			}
		case "[":
			x = p.index(x)
		case "(":
			if !calls {
				return x
			}
			x = p.callArgs(x)
		case "!":
			if p.lineBreak() {
				return x
			}
			p.i++ // TypeScript's non-null assertion
		case "++", "--":
			if p.lineBreak() {
				return x
			}
			p.i++
			x = unop(t.Text, x, x.Line, x.Col)
		case "<":
			if !p.typeArgs() {
				return x
			}
		default:
			return x
		}
	}
	return x
}

// member is x.name; module.exports is the unit's exports.
func (p *parser) member(x *flow.Expr, n string, l, c int32) *flow.Expr {
	if x.Op == flow.Name && x.S == "module" && n == "exports" {
		p.exports = true
		return name(exportsName, x.Line, x.Col)
	}
	return &flow.Expr{Op: flow.Attr, X: x, S: n, Line: l, Col: c}
}

// index is x[k]; a constant key is a member.
func (p *parser) index(x *flow.Expr) *flow.Expr {
	l, c := p.pos()
	var k *flow.Expr
	p.inside(func() { k = p.expression() })
	if k.Op == flow.Str {
		return p.member(x, k.S, l, c)
	}
	return &flow.Expr{Op: flow.Index, X: x, Args: []*flow.Expr{k}, Line: l, Col: c}
}

func (p *parser) callArgs(fn *flow.Expr) *flow.Expr {
	c := &flow.Expr{Op: flow.Call, X: fn, Line: fn.Line, Col: fn.Col}
	if c.Line == 0 {
		c.Line, c.Col = p.pos()
	}
	p.inside(func() {
		for p.i < p.end {
			if p.eat(",") {
				continue
			}
			start := p.i
			key := ""
			if p.eat("...") {
				key = "*"
			}
			c.Args = append(c.Args, p.assign())
			c.Keys = append(c.Keys, key)
			p.skipToComma()
			if p.i == start {
				p.i++
			}
		}
	})
	return c
}

var literals = map[string]bool{"true": true, "false": true, "null": true, "undefined": true, "NaN": true, "Infinity": true}

func (p *parser) primary() *flow.Expr {
	t := p.peek()
	if t == nil {
		l, c := p.pos()
		return other(l, c)
	}
	l, c := t.Line, t.Col
	switch t.Kind {
	case lex.Ident:
		switch t.Text {
		case "function":
			return p.funcExpr()
		case "async":
			if p.isAt(1, "function") && !p.nl[p.i+1] {
				p.i++
				return p.funcExpr()
			}
		case "class":
			s := p.class(nil)
			n := p.temp("class")
			rename(s, n)
			p.emit(s)
			return name(n, l, c)
		case "new":
			return p.newExpr()
		case "exports":
			p.i++
			p.exports = true
			return name(exportsName, l, c)
		}
		p.i++
		if literals[t.Text] {
			return &flow.Expr{Op: flow.Num, S: t.Text, Line: l, Col: c}
		}
		return name(t.Text, l, c)
	case lex.Number:
		p.i++
		return &flow.Expr{Op: flow.Num, S: t.Text, Line: l, Col: c}
	case lex.String:
		p.i++
		return &flow.Expr{Op: flow.Str, S: stringValue(t.Text), Line: l, Col: c}
	case lex.Template:
		p.i++
		return p.template(t)
	case lex.Regex:
		p.i++
		return other(l, c)
	case lex.Punct:
		switch t.Text {
		case "(":
			var x *flow.Expr
			p.inside(func() { x = p.expression() })
			return x
		case "[":
			return p.array()
		case "{":
			return p.object()
		case "#":
			p.i++
			if n := p.peek(); n != nil && n.Kind == lex.Ident {
				p.i++
				return name("#"+n.Text, l, c)
			}
			return other(l, c)
		case "@":
			decs := p.decorators()
			if p.word("class") {
				s := p.class(decs)
				n := p.temp("class")
				rename(s, n)
				p.emit(s)
				return name(n, l, c)
			}
			return other(l, c, decs...)
		case "...":
			p.i++
			return p.assign()
		}
	}
	p.i++
	return other(l, c)
}

// newExpr is "new X(args)": a call of X, so that the artifact's own
// classes are instantiated and the vocabulary's constructors apply.
func (p *parser) newExpr() *flow.Expr {
	l, c := p.pos()
	p.i++
	if p.punct(".") { // new.target
		p.i++
		if p.peek() != nil {
			p.i++
		}
		return name("new.target", l, c)
	}
	callee := p.postfix(p.primary(), false)
	if p.punct("(") {
		return p.callArgs(callee)
	}
	return &flow.Expr{Op: flow.Call, X: callee, Line: callee.Line, Col: callee.Col}
}

func (p *parser) array() *flow.Expr {
	l, c := p.pos()
	lst := &flow.Expr{Op: flow.List, Line: l, Col: c}
	p.inside(func() {
		hole := true
		for p.i < p.end {
			if p.eat(",") {
				if hole {
					lst.Args = append(lst.Args, other(l, c))
				}
				hole = true
				continue
			}
			start := p.i
			if p.eat("...") {
				x := p.assign()
				lst.Args = append(lst.Args, &flow.Expr{Op: flow.Elem, X: x, Line: x.Line, Col: x.Col})
			} else {
				lst.Args = append(lst.Args, p.assign())
			}
			hole = false
			p.skipToComma()
			if p.i == start {
				p.i++
			}
		}
	})
	return lst
}

func (p *parser) object() *flow.Expr {
	l, c := p.pos()
	d := &flow.Expr{Op: flow.Dict, Line: l, Col: c}
	p.inside(func() {
		for p.i < p.end {
			if p.eat(",") {
				continue
			}
			start := p.i
			p.property(d)
			p.skipToComma()
			if p.i == start {
				p.i++
			}
		}
	})
	return d
}

// keyFollows says whether the token k ahead can be a property name (so
// the word before it is get, set, async or static, not the name).
func (p *parser) keyFollows(k int) bool {
	t := p.peekAt(k)
	if t == nil {
		return false
	}
	switch t.Kind {
	case lex.Ident, lex.String, lex.Number:
		return true
	case lex.Punct:
		return t.Text == "[" || t.Text == "*" || t.Text == "#"
	}
	return false
}

func (p *parser) property(d *flow.Expr) {
	if p.eat("...") {
		d.Keys = append(d.Keys, "**")
		d.Args = append(d.Args, p.assign())
		return
	}
	for {
		t := p.peek()
		if t != nil && t.Kind == lex.Ident && (t.Text == "get" || t.Text == "set" || t.Text == "async") && p.keyFollows(1) {
			p.i++
			continue
		}
		if p.eat("*") {
			continue
		}
		break
	}
	t := p.peek()
	if t == nil {
		return
	}
	l, c := t.Line, t.Col
	key := ""
	var short *flow.Expr
	switch t.Kind {
	case lex.Ident:
		key = t.Text
		short = name(key, l, c)
		if key == "exports" {
			p.exports = true
			short.S = exportsName
		}
		p.i++
	case lex.String:
		key = stringValue(t.Text)
		p.i++
	case lex.Number:
		key = t.Text
		p.i++
	case lex.Punct:
		if t.Text != "[" {
			return
		}
		var k *flow.Expr
		p.inside(func() { k = p.assign() })
		if k.Op == flow.Str {
			key = k.S
		} else if hasCall(k) {
			p.emit(&flow.Stmt{Op: flow.Eval, Val: k, Line: l, Col: c})
		}
	default:
		return
	}
	var v *flow.Expr
	switch {
	case p.punct("(") || p.punct("<"):
		if f := p.funcRest("", l); f != nil {
			v = p.fnValue(f, l, c)
		}
	case p.eat(":"):
		v = p.assign()
	case p.punct("="):
		// {a = 1}: a pattern's default, read where a pattern was not expected
		p.i++
		v = other(l, c, short, p.assign())
	default:
		v = short
	}
	if v == nil {
		v = other(l, c)
	}
	d.Keys = append(d.Keys, key)
	d.Args = append(d.Args, v)
}

// --- functions

// funcExpr is a function expression at "function" (after "async").
func (p *parser) funcExpr() *flow.Expr {
	l, c := p.pos()
	p.i++
	p.eat("*")
	if t := p.peek(); t != nil && t.Kind == lex.Ident {
		p.i++
	}
	f := p.funcRest("", l)
	if f == nil {
		return other(l, c)
	}
	return p.fnValue(f, l, c)
}

// funcRest reads type parameters, parameters, a return type and the body;
// nil when there is no body (an overload or a declaration).
func (p *parser) funcRest(n string, l int32) *flow.Func {
	if p.punct("<") {
		p.skipAngles()
	}
	f := &flow.Func{Name: n, Line: l}
	var pro []*flow.Stmt
	if p.punct("(") {
		p.inside(func() { pro = p.params(f) })
	}
	if p.punct(":") {
		p.i++
		p.skipType(false)
	}
	if !p.punct("{") {
		p.eat(";")
		return nil
	}
	f.Body = append(pro, p.body()...)
	return f
}

// body parses the braces at the cursor as a function's body.
func (p *parser) body() []*flow.Stmt {
	var out []*flow.Stmt
	pend, last, noHoist, noIn := p.pend, p.last, p.noHoist, p.noIn
	p.pend, p.noHoist, p.noIn = nil, 0, false
	if p.punct("{") {
		p.inside(func() { out = p.stmts() })
	}
	p.pend, p.last, p.noHoist, p.noIn = pend, last, noHoist, noIn
	return out
}

// fnValue is a function expression's value: the function is declared
// under a name of its own just before the statement (so the engine
// follows it even if nothing calls it), and the expression is that name.
func (p *parser) fnValue(f *flow.Func, l, c int32) *flow.Expr {
	if p.noHoist > 0 {
		return &flow.Expr{Op: flow.Lambda, Fn: f, Line: l, Col: c}
	}
	f.Name = p.temp("fn")
	p.emit(&flow.Stmt{Op: flow.Def, Fn: f, Line: l, Col: c})
	return name(f.Name, l, c)
}

var reserved = map[string]bool{"function": true, "class": true, "new": true, "return": true, "typeof": true, "void": true,
	"delete": true, "in": true, "of": true, "instanceof": true, "this": true, "super": true, "await": true, "yield": true,
	"if": true, "else": true, "for": true, "while": true, "do": true, "var": true, "let": true, "const": true, "true": true,
	"false": true, "null": true, "import": true, "export": true, "switch": true, "case": true, "default": true}

// arrow reads an arrow function at the cursor, or returns nil.
func (p *parser) arrow() *flow.Expr {
	t := p.peek()
	l, c := t.Line, t.Col
	k := 0
	if t.Kind == lex.Ident && t.Text == "async" {
		if n := p.peekAt(1); n != nil && !p.nl[p.i+1] && (n.Kind == lex.Ident && p.isAt(2, "=>") || n.Kind == lex.Punct && n.Text == "(" && p.arrowAfter(p.i+1)) {
			k = 1
		}
	}
	n := p.peekAt(k)
	if n == nil {
		return nil
	}
	switch {
	case n.Kind == lex.Ident && !reserved[n.Text] && p.isAt(k+1, "=>"):
		p.i += k + 2
		f := &flow.Func{Line: l, Params: []flow.Param{{Name: n.Text}}}
		f.Body = p.arrowBody()
		return p.fnValue(f, l, c)
	case n.Kind == lex.Punct && n.Text == "(" && p.arrowAfter(p.i+k):
		p.i += k
		return p.arrowRest(l, c)
	case n.Kind == lex.Punct && n.Text == "<" && p.typed:
		save := p.i
		p.i += k
		p.skipAngles()
		if p.punct("(") && p.arrowAfter(p.i) {
			return p.arrowRest(l, c)
		}
		p.i = save
	}
	return nil
}

// arrowAfter says whether the parenthesis at open is an arrow function's
// parameters: "=>" follows, or a return type and then "=>".
func (p *parser) arrowAfter(open int) bool {
	j := int(p.match[open]) + 1
	if j >= p.end {
		return false
	}
	t := p.ts[j]
	if t.Kind != lex.Punct {
		return false
	}
	if t.Text == "=>" {
		return true
	}
	if t.Text != ":" {
		return false
	}
	save := p.i
	p.i = j + 1
	p.skipTypeN(false, maxLookahead)
	ok := p.punct("=>")
	p.i = save
	return ok
}

func (p *parser) arrowRest(l, c int32) *flow.Expr {
	f := &flow.Func{Line: l}
	var pro []*flow.Stmt
	p.inside(func() { pro = p.params(f) })
	if p.punct(":") {
		p.i++
		p.skipType(false)
	}
	p.eat("=>")
	f.Body = append(pro, p.arrowBody()...)
	return p.fnValue(f, l, c)
}

func (p *parser) arrowBody() []*flow.Stmt {
	if p.punct("{") {
		return p.body()
	}
	l, c := p.pos()
	pend, last, noHoist := p.pend, p.last, p.noHoist
	p.pend, p.noHoist = nil, 0
	x := p.assign()
	out := append(p.pend, &flow.Stmt{Op: flow.Return, Val: x, Line: l, Col: c})
	p.pend, p.last, p.noHoist = pend, last, noHoist
	return out
}

var paramModifiers = map[string]bool{"public": true, "private": true, "protected": true, "readonly": true, "override": true}

// params reads a parameter list (inside its parentheses) into f and
// returns the statements that unpack destructured parameters and store
// TypeScript's parameter properties.
func (p *parser) params(f *flow.Func) []*flow.Stmt {
	var pro []*flow.Stmt
	for p.i < p.end {
		if p.eat(",") {
			continue
		}
		start := p.i
		for p.punct("@") {
			p.decorators()
		}
		prop := false
		for t := p.peek(); t != nil && t.Kind == lex.Ident && paramModifiers[t.Text] && p.keyFollows(1); t = p.peek() {
			prop = true
			p.i++
		}
		rest := p.eat("...")
		t := p.peek()
		if t == nil {
			break
		}
		l, c := t.Line, t.Col
		pr := flow.Param{Rest: rest}
		var pt *pat
		switch {
		case t.Kind == lex.Ident && t.Text == "this" && p.isAt(1, ":"):
			// TypeScript's declared type of this, not a parameter
			p.skipToComma()
			continue
		case t.Kind == lex.Ident:
			pr.Name = t.Text
			p.i++
		case p.punct("{") || p.punct("["):
			pt = p.pattern(true)
			pr.Name = p.temp("p")
		default:
			p.skipToComma()
			if p.i == start {
				p.i++
			}
			continue
		}
		p.eat("?")
		if p.punct(":") {
			p.i++
			p.skipType(false)
		}
		if p.punct("=") {
			p.i++
			p.noHoist++
			p.capture(func() { pr.Default = p.assign() })
			p.noHoist--
		}
		f.Params = append(f.Params, pr)
		if pt != nil {
			pro = append(pro, p.capture(func() { p.destructure(pt, name(pr.Name, l, c), l, c) })...)
		}
		if prop {
			pro = append(pro, &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{{Op: flow.Attr, X: name("this", l, c), S: pr.Name, Line: l, Col: c}},
				Val: name(pr.Name, l, c), Line: l, Col: c})
		}
		p.skipToComma()
		if p.i == start {
			p.i++
		}
	}
	return pro
}

// decorators reads "@expr" decorators.
func (p *parser) decorators() []*flow.Expr {
	var out []*flow.Expr
	for p.punct("@") {
		p.i++
		t := p.peek()
		if t == nil || t.Kind != lex.Ident && !(t.Kind == lex.Punct && t.Text == "(") {
			break
		}
		x := p.primary()
		for p.punct(".") {
			p.i++
			if n := p.peek(); n != nil && n.Kind == lex.Ident {
				p.i++
				x = &flow.Expr{Op: flow.Attr, X: x, S: n.Text, Line: n.Line, Col: n.Col}
			}
		}
		if p.punct("(") {
			x = p.callArgs(x)
		}
		out = append(out, x)
	}
	return out
}

// --- literals

// stringValue decodes a string literal token.
func stringValue(raw string) string {
	if raw == "" {
		return ""
	}
	q := raw[0]
	body := raw[1:]
	if n := len(body); n > 0 && body[n-1] == q {
		bs := 0
		for k := n - 2; k >= 0 && body[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			body = body[:n-1]
		}
	}
	return unescape(body)
}

// unescape decodes JavaScript's escapes: \n and the like, \xHH, \uHHHH,
// \u{H…}, legacy octal, and line continuations.
func unescape(s string) string {
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
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			if i+2 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(n))
					i += 2
					continue
				}
			}
			b.WriteByte('x')
		case 'u':
			r, n := unicodeEscape(s[i+1:])
			if n == 0 {
				b.WriteByte('u')
				continue
			}
			i += n
			if r >= 0xD800 && r < 0xDC00 && i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				// a surrogate pair
				if lo, m := unicodeEscape(s[i+3:]); m > 0 && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 2 + m
				}
			}
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			if n > 0xff {
				j--
				n >>= 3
			}
			b.WriteRune(rune(n))
			i = j - 1
		default:
			b.WriteByte(d)
		}
	}
	return b.String()
}

// unicodeEscape reads the HHHH or {H…} after \u; n is how many bytes.
func unicodeEscape(s string) (rune, int) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 2 || end > 9 {
			return 0, 0
		}
		n, err := strconv.ParseUint(s[1:end], 16, 32)
		if err != nil || n > utf8.MaxRune {
			return 0, 0
		}
		return rune(n), end + 1
	}
	if len(s) < 4 {
		return 0, 0
	}
	n, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(n), 4
}

// template lowers a template literal: its literal parts as strings, each
// ${…} as the expression it holds.
func (p *parser) template(t *lex.Token) *flow.Expr {
	raw := t.Text
	l, c := t.Line, t.Col
	body := raw
	if len(body) > 0 {
		body = body[1:]
	}
	if n := len(body); n > 0 && body[n-1] == '`' {
		bs := 0
		for k := n - 2; k >= 0 && body[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			body = body[:n-1]
		}
	}
	var parts []*flow.Expr
	line, col := l, c+1 // where body[0] is
	at := 0             // body[:at] has been counted into line and col
	advance := func(to int) {
		seg := body[at:to]
		if k := strings.LastIndexByte(seg, '\n'); k >= 0 {
			line += int32(strings.Count(seg, "\n"))
			col = int32(len(seg)-k-1) + 1
		} else {
			col += int32(len(seg))
		}
		at = to
	}
	litStart := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '$':
			if i+1 >= len(body) || body[i+1] != '{' {
				continue
			}
			if i > litStart {
				parts = append(parts, &flow.Expr{Op: flow.Str, S: unescape(body[litStart:i]), Line: l, Col: c})
			}
			end := scanExpr(body, i+1, 0)
			src := body[min(i+2, end):end]
			advance(min(i+2, len(body)))
			if p.templates >= maxTemplates {
				// each level is read again by the next: keep it shallow
				if !p.deep {
					p.deep = true
					p.u.Unresolved = append(p.u.Unresolved, flow.Note{Line: line, What: "JavaScript template literals nested too deeply to follow"})
				}
			} else {
				p.templates++
				toks := p.tokens(src, line, col, p.depth)
				var x *flow.Expr
				p.withTokens(toks, func() { x = p.expression() })
				p.templates--
				parts = append(parts, x)
			}
			i = end
			litStart = min(end+1, len(body))
		}
	}
	if litStart < len(body) {
		parts = append(parts, &flow.Expr{Op: flow.Str, S: unescape(body[litStart:]), Line: l, Col: c})
	}
	switch {
	case len(parts) == 0:
		return &flow.Expr{Op: flow.Str, Line: l, Col: c}
	case len(parts) == 1 && parts[0].Op == flow.Str:
		return parts[0]
	}
	return &flow.Expr{Op: flow.Fmt, Args: parts, Line: l, Col: c}
}

// --- TypeScript types

// skipType moves past a type annotation. It stops, at angle-bracket depth
// 0, at a token that cannot continue the type: one of = , ; ) ] }, a
// "{" or "(" or word after a complete type (a body, a call, the next
// statement), "=>" after a type that is not a function type's parameters
// (an arrow's return type), a line break after a complete type; in an
// "as" expression also at "?" and ":".
func (p *parser) skipType(as bool) { p.skipTypeN(as, maxTypeTokens) }

// skipTypeN is skipType reading at most limit tokens: a lookahead, which
// is read again, must stay short for the parse to stay linear.
func (p *parser) skipTypeN(as bool, limit int) {
	angle, quest, n := 0, 0, 0
	complete, group := false, false
	for p.i < p.end && n < limit {
		n++
		t := p.ts[p.i]
		if angle == 0 && complete && p.nl[p.i] && !continuesType(t) {
			return
		}
		wasGroup := group
		group = false
		switch t.Kind {
		case lex.Punct:
			switch t.Text {
			case "(", "[", "{":
				if angle == 0 && complete && t.Text != "[" {
					return
				}
				p.i = min(int(p.match[p.i])+1, p.end)
				complete, group = true, t.Text == "("
				continue
			case "<":
				angle++
				complete = false
			case ">", ">>", ">>>":
				if angle == 0 {
					return
				}
				angle = max(0, angle-len(t.Text))
				complete = true
			case "=>":
				if angle == 0 && !wasGroup {
					return
				}
				complete = false
			case "|", "&", ".", "-", "...", "*":
				complete = false
			case "?":
				if angle == 0 && as {
					return
				}
				quest++
				complete = false
			case ":":
				if angle == 0 {
					if quest == 0 {
						return
					}
					quest--
				}
				complete = false
			case ",", "=":
				if angle == 0 {
					return
				}
				complete = false
			default:
				return
			}
		case lex.Ident:
			switch t.Text {
			case "extends", "keyof", "typeof", "infer", "is", "readonly", "unique", "asserts", "new", "abstract", "in", "out":
				complete = false
			default:
				if complete && angle == 0 {
					return
				}
				complete = true
			}
		case lex.String, lex.Number, lex.Template:
			if complete && angle == 0 {
				return
			}
			complete = true
		default:
			return
		}
		p.i++
	}
}

// continuesType says whether a token at the start of a line carries a
// type on ("| B" of a union written one member a line).
func continuesType(t lex.Token) bool {
	if t.Kind == lex.Punct {
		switch t.Text {
		case "|", "&", ".", "=>", "?", ":", "<", "[":
			return true
		}
	}
	return t.Kind == lex.Ident && (t.Text == "extends" || t.Text == "is")
}

// skipAngles moves past a "<…>" of type parameters or arguments.
func (p *parser) skipAngles() {
	angle, n := 0, 0
	for p.i < p.end && n < maxTypeTokens {
		n++
		t := p.ts[p.i]
		if t.Kind == lex.Punct {
			switch t.Text {
			case "(", "[", "{":
				p.i = min(int(p.match[p.i])+1, p.end)
				continue
			case "<":
				angle++
			case ">", ">>", ">>>":
				angle -= len(t.Text)
			case ";":
				return
			}
		}
		p.i++
		if angle <= 0 {
			return
		}
	}
}

// typeArgs moves past "<…>" when it is a call's type arguments (a "(" or
// a template follows) and reports whether it did.
func (p *parser) typeArgs() bool {
	angle := 0
	for j := p.i; j < p.end && j-p.i < maxLookahead; j++ {
		t := p.ts[j]
		switch t.Kind {
		case lex.Ident, lex.String, lex.Number:
			continue
		case lex.Punct:
		default:
			return false
		}
		switch t.Text {
		case "(", "[", "{":
			j = int(p.match[j])
			continue
		case "<":
			angle++
		case ">", ">>", ">>>":
			angle -= len(t.Text)
			if angle < 0 {
				return false
			}
			if angle == 0 {
				if j+1 < p.end && (p.ts[j+1].Kind == lex.Template || p.ts[j+1].Kind == lex.Punct && p.ts[j+1].Text == "(") {
					p.i = j + 1
					return true
				}
				return false
			}
		case ",", ".", "|", "&", "?", ":", "=>", "-", "...":
		default:
			return false
		}
	}
	return false
}
