package js

import (
	"strconv"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/lex"
)

// stmts parses statements to the end of the current bracket. Function
// declarations move to the front: JavaScript hoists them, and minified
// code calls functions it declares further down.
func (p *parser) stmts() []*flow.Stmt {
	var out []*flow.Stmt
	for p.i < p.end {
		start := p.i
		out = append(out, p.statement()...)
		if p.i == start {
			p.i++
		}
	}
	n := 0
	for _, s := range out {
		if p.decls[s] {
			n++
		}
	}
	if n == 0 || n == len(out) {
		return out
	}
	hoisted := make([]*flow.Stmt, 0, len(out))
	for _, s := range out {
		if p.decls[s] {
			hoisted = append(hoisted, s)
		}
	}
	for _, s := range out {
		if !p.decls[s] {
			hoisted = append(hoisted, s)
		}
	}
	return hoisted
}

// statement parses one statement and returns what it lowers to.
func (p *parser) statement() []*flow.Stmt {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		p.tooDeep()
		return nil
	}
	saved := p.pend
	p.pend = nil
	p.stmt()
	out := p.pend
	p.pend = saved
	return out
}

func (p *parser) semi() { p.eat(";") }

// block parses a statement that should be a block, and returns its body.
func (p *parser) block() []*flow.Stmt {
	if p.punct("{") {
		var out []*flow.Stmt
		p.inside(func() { out = p.stmts() })
		return out
	}
	return p.statement()
}

// paren parses "( expression )".
func (p *parser) paren() *flow.Expr {
	if !p.punct("(") {
		return nil
	}
	var x *flow.Expr
	p.inside(func() { x = p.expression() })
	return x
}

func (p *parser) stmt() {
	t := p.peek()
	if t == nil {
		return
	}
	l, c := t.Line, t.Col
	switch t.Kind {
	case lex.Punct:
		switch t.Text {
		case ";":
			p.i++
			return
		case "{":
			p.emit(&flow.Stmt{Op: flow.Block, Body: p.block(), Line: l, Col: c})
			return
		case "@":
			decs := p.decorators()
			p.eat("export")
			p.eat("default")
			p.eat("abstract")
			if p.word("class") {
				p.emit(p.class(decs))
				return
			}
			for _, d := range decs {
				p.emit(&flow.Stmt{Op: flow.Eval, Val: d, Line: l, Col: c})
			}
			return
		}
	case lex.Ident:
		if p.keyword(t, l, c) {
			return
		}
	}
	p.last = nil
	x := p.expression()
	if x != p.last && effectful(x) {
		p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: l, Col: c})
	}
	p.semi()
}

// nameFollows says whether an identifier comes next on the same line (so
// a contextual word — type, declare, namespace — is a keyword).
func (p *parser) nameFollows() bool {
	n := p.peekAt(1)
	return n != nil && (n.Kind == lex.Ident || n.Kind == lex.String) && !p.nl[p.i+1]
}

// keyword parses a statement that starts with a word, and reports whether
// it was one.
func (p *parser) keyword(t *lex.Token, l, c int32) bool {
	switch t.Text {
	case "var", "let", "const":
		if p.isAt(1, "enum") {
			p.i++
			p.enum(l, c)
			return true
		}
		if n := p.peekAt(1); t.Text == "let" && (n == nil || n.Kind == lex.Punct && n.Text != "[" && n.Text != "{") {
			return false // let as a name
		}
		p.i++
		p.varDecl()
		p.semi()
	case "function":
		p.funcDecl()
	case "async":
		if !p.isAt(1, "function") || p.nl[p.i+1] {
			return false
		}
		p.i++
		p.funcDecl()
	case "class":
		p.emit(p.class(nil))
	case "if":
		p.i++
		cond := p.paren()
		p.emit(&flow.Stmt{Op: flow.Block, Val: cond, Body: p.statement(), Line: l, Col: c})
		if p.word("else") {
			el, ec := p.pos()
			p.i++
			p.emit(&flow.Stmt{Op: flow.Block, Body: p.statement(), Line: el, Col: ec})
		}
	case "while":
		p.i++
		cond := p.paren()
		p.emit(&flow.Stmt{Op: flow.While, Val: cond, Body: p.statement(), Line: l, Col: c})
	case "do":
		p.i++
		body := p.statement()
		var cond *flow.Expr
		if p.eat("while") {
			cond = p.paren()
		}
		p.emit(&flow.Stmt{Op: flow.While, Val: cond, Body: body, Line: l, Col: c})
		p.semi()
	case "for":
		p.forStmt(l, c)
	case "return":
		p.i++
		s := &flow.Stmt{Op: flow.Return, Line: l, Col: c}
		if n := p.peek(); n != nil && !p.lineBreak() && !(n.Kind == lex.Punct && (n.Text == ";" || n.Text == "}")) {
			s.Val = p.expression()
		}
		p.semi()
		p.emit(s)
	case "throw":
		p.i++
		x := p.expression()
		p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: l, Col: c})
		p.semi()
	case "try":
		p.i++
		p.emit(&flow.Stmt{Op: flow.Block, Body: p.block(), Line: l, Col: c})
		if p.word("catch") {
			cl, cc := p.pos()
			p.i++
			var pro []*flow.Stmt
			if p.punct("(") {
				p.inside(func() {
					pt := p.pattern(true)
					pro = p.capture(func() { p.destructure(pt, other(cl, cc), cl, cc) })
				})
			}
			p.emit(&flow.Stmt{Op: flow.Block, Body: append(pro, p.block()...), Line: cl, Col: cc})
		}
		if p.word("finally") {
			fl, fc := p.pos()
			p.i++
			p.emit(&flow.Stmt{Op: flow.Block, Body: p.block(), Line: fl, Col: fc})
		}
	case "switch":
		p.i++
		disc := p.paren()
		var cases []*flow.Stmt
		if p.punct("{") {
			p.inside(func() { cases = p.cases() })
		}
		p.emit(&flow.Stmt{Op: flow.Block, Val: disc, Body: cases, Line: l, Col: c})
	case "break", "continue":
		p.i++
		if n := p.peek(); n != nil && n.Kind == lex.Ident && !p.lineBreak() {
			p.i++ // a label
		}
		p.semi()
	case "debugger":
		p.i++
		p.semi()
	case "with":
		p.i++
		obj := p.paren()
		p.emit(&flow.Stmt{Op: flow.Block, Val: obj, Body: p.statement(), Line: l, Col: c})
	case "import":
		if n := p.peekAt(1); n == nil || n.Kind == lex.Punct && (n.Text == "(" || n.Text == ".") {
			return false // import(…) and import.meta are expressions
		}
		p.importDecl(l)
	case "export":
		p.exportDecl(l, c)
	case "interface":
		if !p.nameFollows() {
			return false
		}
		for p.i < p.end && !p.punct("{") {
			p.i++
		}
		p.skipItem()
	case "type":
		if !p.nameFollows() || p.peekAt(1).Kind != lex.Ident {
			return false
		}
		p.i += 2
		if p.punct("<") {
			p.skipAngles()
		}
		if p.eat("=") {
			p.skipType(false)
		}
		p.semi()
	case "declare":
		if !p.nameFollows() {
			return false
		}
		p.skipDeclaration()
	case "namespace", "module":
		if !p.nameFollows() {
			return false
		}
		p.i++
		for p.i < p.end && !p.punct("{") && !p.lineBreak() {
			p.i++
		}
		if p.punct("{") {
			p.emit(&flow.Stmt{Op: flow.Block, Body: p.block(), Line: l, Col: c})
		}
	case "enum":
		if !p.nameFollows() {
			return false
		}
		p.enum(l, c)
	case "abstract":
		if !p.isAt(1, "class") {
			return false
		}
		p.i++
		p.emit(p.class(nil))
	default:
		if n := p.peekAt(1); n != nil && n.Kind == lex.Punct && n.Text == ":" && !reserved[t.Text] {
			p.i += 2 // a label
			p.stmt()
			return true
		}
		return false
	}
	return true
}

// cases parses a switch's body: each case is a block guarded by its test.
func (p *parser) cases() []*flow.Stmt {
	var out []*flow.Stmt
	var cur *flow.Stmt
	for p.i < p.end {
		start := p.i
		switch {
		case p.word("case"):
			l, c := p.pos()
			p.i++
			test := p.expression()
			p.eat(":")
			cur = &flow.Stmt{Op: flow.Block, Val: test, Line: l, Col: c}
			out = append(out, cur)
		case p.word("default") && p.isAt(1, ":"):
			l, c := p.pos()
			p.i += 2
			cur = &flow.Stmt{Op: flow.Block, Line: l, Col: c}
			out = append(out, cur)
		default:
			ss := p.statement()
			if cur == nil {
				out = append(out, ss...)
			} else {
				cur.Body = append(cur.Body, ss...)
			}
		}
		if p.i == start {
			p.i++
		}
	}
	return out
}

// skipDeclaration moves past a "declare …" statement: types only.
func (p *parser) skipDeclaration() {
	p.i++
	n := 0
	for p.i < p.end {
		t := p.ts[p.i]
		if n > 0 && p.lineBreak() && !continuesType(t) && !(t.Kind == lex.Punct && t.Text == "{") {
			return
		}
		n++
		if t.Kind == lex.Punct {
			switch t.Text {
			case ";":
				p.i++
				return
			case "{":
				p.skipItem()
				if p.punct(";") {
					p.i++
				}
				return
			case "(", "[":
				p.skipItem()
				continue
			}
		}
		p.i++
	}
}

// enum lowers "enum E { A, B = 2 }" as an object E.
func (p *parser) enum(l, c int32) {
	p.i++
	t := p.peek()
	if t == nil || t.Kind != lex.Ident {
		return
	}
	n := t.Text
	p.i++
	d := &flow.Expr{Op: flow.Dict, Line: l, Col: c}
	if p.punct("{") {
		p.inside(func() {
			k := 0
			for p.i < p.end {
				if p.eat(",") {
					continue
				}
				start := p.i
				m := p.peek()
				key := m.Text
				if m.Kind == lex.String {
					key = stringValue(m.Text)
				}
				p.i++
				var v *flow.Expr = &flow.Expr{Op: flow.Num, S: strconv.Itoa(k), Line: m.Line, Col: m.Col}
				if p.eat("=") {
					v = p.assign()
				}
				d.Keys = append(d.Keys, key)
				d.Args = append(d.Args, v)
				k++
				p.skipToComma()
				if p.i == start {
					p.i++
				}
			}
		})
	}
	p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(n, l, c)}, Val: d, Line: l, Col: c})
}

// varDecl parses declarators after var, let or const.
func (p *parser) varDecl() {
	for p.i < p.end {
		t := p.peek()
		l, c := t.Line, t.Col
		switch {
		case p.punct("{") || p.punct("["):
			pt := p.pattern(true)
			p.typeAnnotation()
			var init *flow.Expr
			if p.eat("=") {
				init = p.assign()
			}
			p.destructure(pt, init, l, c)
		case t.Kind == lex.Ident:
			p.i++
			p.eat("!")
			p.typeAnnotation()
			if !p.eat("=") {
				// the name is the function's own from here on, so that a
				// closure's assignment to it lands here
				p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(t.Text, l, c)}, Val: other(l, c), Line: l, Col: c})
				break
			}
			p.bind(t.Text, p.assign(), l, c)
		default:
			return
		}
		if !p.eat(",") {
			return
		}
	}
}

func (p *parser) typeAnnotation() {
	if p.punct(":") {
		p.i++
		p.skipType(false)
	}
}

// bind declares n with the value init; a function or class expression
// just lowered takes the name itself.
func (p *parser) bind(n string, init *flow.Expr, l, c int32) {
	if init.Op == flow.Name && len(init.S) > 0 && init.S[0] == 0 && len(p.pend) > 0 {
		if last := p.pend[len(p.pend)-1]; (last.Op == flow.Def || last.Op == flow.Class) && last.Fn.Name == init.S {
			rename(last, n)
			return
		}
	}
	p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(n, l, c)}, Val: init, Line: l, Col: c})
}

func rename(s *flow.Stmt, n string) {
	s.Fn.Name = n
	if s.Op == flow.Class {
		for _, m := range s.Fn.Body {
			if m.Op == flow.Def {
				m.Fn.Class = n
			}
		}
	}
}

func (p *parser) funcDecl() {
	l, c := p.pos()
	p.i++
	p.eat("*")
	n := ""
	if t := p.peek(); t != nil && t.Kind == lex.Ident {
		n = t.Text
		p.i++
	}
	f := p.funcRest(n, l)
	if f == nil {
		return
	}
	if f.Name == "" {
		f.Name = "default" // export default function () {}
	}
	s := &flow.Stmt{Op: flow.Def, Fn: f, Line: l, Col: c}
	p.decls[s] = true
	p.emit(s)
}

// forStmt lowers for (init; test; update) as its init and a while loop,
// and for-in and for-of as a loop over the iterated value.
func (p *parser) forStmt(l, c int32) {
	p.i++
	p.eat("await")
	if !p.punct("(") {
		return
	}
	open := p.i
	cl := min(int(p.match[open]), p.end)
	cstyle := false
	for j := open + 1; j < cl; j++ {
		t := p.ts[j]
		if t.Kind == lex.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
			j = int(p.match[j])
			continue
		}
		if t.Kind == lex.Punct && t.Text == ";" {
			cstyle = true
			break
		}
	}
	if cstyle {
		var init, update []*flow.Stmt
		var test *flow.Expr
		p.inside(func() {
			init = p.capture(func() {
				p.noIn = true
				if p.word("var") || p.word("let") || p.word("const") {
					p.i++
					p.varDecl()
				} else if !p.punct(";") {
					p.last = nil
					if x := p.expression(); x != p.last && effectful(x) {
						p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: l, Col: c})
					}
				}
				p.noIn = false
			})
			p.eat(";")
			if !p.punct(";") && p.i < p.end {
				init = append(init, p.capture(func() { test = p.expression() })...)
			}
			p.eat(";")
			if p.i < p.end {
				update = p.capture(func() {
					p.last = nil
					if x := p.expression(); x != p.last && effectful(x) {
						p.emit(&flow.Stmt{Op: flow.Eval, Val: x, Line: l, Col: c})
					}
				})
			}
		})
		body := p.statement()
		for _, s := range init {
			p.emit(s)
		}
		p.emit(&flow.Stmt{Op: flow.While, Val: test, Body: append(body, update...), Line: l, Col: c})
		return
	}
	var dst []*flow.Expr
	var pro []*flow.Stmt
	var iter *flow.Expr
	p.inside(func() {
		decl := false
		if (p.word("var") || p.word("let") || p.word("const")) && !p.isAt(1, "of") && !p.isAt(1, "in") {
			p.i++
			decl = true
		}
		switch {
		case p.punct("{") || p.punct("["):
			pt := p.pattern(decl)
			t := p.temp("it")
			dst = []*flow.Expr{name(t, l, c)}
			pro = p.capture(func() { p.destructure(pt, name(t, l, c), l, c) })
		default:
			p.noIn = true
			dst = []*flow.Expr{p.postfix(p.primary(), true)}
			p.noIn = false
		}
		p.typeAnnotation()
		if !p.eat("of") {
			p.eat("in")
		}
		iter = p.expression()
	})
	body := p.statement()
	p.emit(&flow.Stmt{Op: flow.For, Dst: dst, Val: iter, Body: append(pro, body...), Line: l, Col: c})
}

// --- destructuring

type patKind uint8

const (
	patNone patKind = iota
	patLeaf
	patObj
	patArr
)

// pat is a binding or assignment pattern.
type pat struct {
	kind  patKind
	leaf  *flow.Expr // a name, or a member in an assignment
	def   *flow.Expr
	props []prop // an object's properties, an array's elements
}

type prop struct {
	key  string
	keyX *flow.Expr // a computed key
	rest bool
	sub  *pat // nil: an array's hole
}

// pattern reads a pattern at the cursor; in a declaration (decl) its
// leaves are names, in an assignment any member expression.
func (p *parser) pattern(decl bool) *pat {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		p.tooDeep()
		return &pat{}
	}
	switch {
	case p.punct("{"):
		pt := &pat{kind: patObj}
		p.inside(func() {
			for p.i < p.end {
				if p.eat(",") {
					continue
				}
				start := p.i
				var pr prop
				if p.eat("...") {
					pr.rest = true
					pr.sub = p.pattern(decl)
				} else {
					t := p.peek()
					switch {
					case t.Kind == lex.Ident:
						pr.key = t.Text
						p.i++
					case t.Kind == lex.String:
						pr.key = stringValue(t.Text)
						p.i++
					case t.Kind == lex.Number:
						pr.key = t.Text
						p.i++
					case p.punct("["):
						p.inside(func() { pr.keyX = p.assign() })
						if pr.keyX.Op == flow.Str {
							pr.key, pr.keyX = pr.keyX.S, nil
						}
					default:
						p.skipToComma()
						continue
					}
					if p.eat(":") {
						pr.sub = p.pattern(decl)
					} else {
						pr.sub = &pat{kind: patLeaf, leaf: name(pr.key, t.Line, t.Col)}
					}
					if p.eat("=") {
						pr.sub.def = p.assign()
					}
				}
				pt.props = append(pt.props, pr)
				p.skipToComma()
				if p.i == start {
					p.i++
				}
			}
		})
		return pt
	case p.punct("["):
		pt := &pat{kind: patArr}
		p.inside(func() {
			hole := true
			for p.i < p.end {
				if p.eat(",") {
					if hole {
						pt.props = append(pt.props, prop{})
					}
					hole = true
					continue
				}
				start := p.i
				var pr prop
				pr.rest = p.eat("...")
				pr.sub = p.pattern(decl)
				if p.eat("=") {
					pr.sub.def = p.assign()
				}
				pt.props = append(pt.props, pr)
				hole = false
				p.skipToComma()
				if p.i == start {
					p.i++
				}
			}
		})
		return pt
	}
	t := p.peek()
	if t == nil {
		return &pat{}
	}
	if decl {
		if t.Kind != lex.Ident {
			p.skipItem()
			return &pat{}
		}
		p.i++
		return &pat{kind: patLeaf, leaf: name(t.Text, t.Line, t.Col)}
	}
	return &pat{kind: patLeaf, leaf: p.postfix(p.primary(), true)}
}

// destructure emits the assignments a pattern makes from src and returns
// the value the pattern reads from.
func (p *parser) destructure(pt *pat, src *flow.Expr, l, c int32) *flow.Expr {
	if src == nil {
		src = other(l, c)
	}
	val := src
	if pt.def != nil {
		val = &flow.Expr{Op: flow.Bin, S: "??", Args: []*flow.Expr{src, pt.def}, Line: l, Col: c}
	}
	switch pt.kind {
	case patNone:
		return val
	case patLeaf:
		p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{pt.leaf}, Val: val, Line: l, Col: c})
		return pt.leaf
	}
	base := val
	if val.Op != flow.Name {
		t := p.temp("d")
		p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(t, l, c)}, Val: val, Line: l, Col: c})
		base = name(t, l, c)
	}
	for i, pr := range pt.props {
		if pr.sub == nil {
			continue
		}
		var acc *flow.Expr
		switch {
		case pr.rest:
			acc = base
		case pt.kind == patArr:
			acc = &flow.Expr{Op: flow.Index, X: base, Args: []*flow.Expr{{Op: flow.Num, S: strconv.Itoa(i), Line: l, Col: c}}, Line: l, Col: c}
		case pr.keyX != nil:
			acc = &flow.Expr{Op: flow.Index, X: base, Args: []*flow.Expr{pr.keyX}, Line: l, Col: c}
		default:
			acc = &flow.Expr{Op: flow.Attr, X: base, S: pr.key, Line: l, Col: c}
		}
		p.destructure(pr.sub, acc, l, c)
	}
	return base
}

// --- classes

var classModifiers = map[string]bool{"static": true, "public": true, "private": true, "protected": true, "readonly": true,
	"abstract": true, "override": true, "declare": true, "accessor": true, "async": true, "get": true, "set": true}

// class parses "class Name extends Base { members }" at "class". Bases
// and decorators are the class's Decorators, as the engine reads them.
func (p *parser) class(decs []*flow.Expr) *flow.Stmt {
	l, c := p.pos()
	p.i++
	n := ""
	if t := p.peek(); t != nil && t.Kind == lex.Ident && t.Text != "extends" && t.Text != "implements" {
		n = t.Text
		p.i++
	}
	if p.punct("<") {
		p.skipAngles()
	}
	var bases []*flow.Expr
	if p.eat("extends") {
		bases = append(bases, p.postfix(p.primary(), true))
		if p.punct("<") {
			p.skipAngles()
		}
	}
	if p.eat("implements") {
		for p.i < p.end && !p.punct("{") {
			p.skipItem()
		}
	}
	f := &flow.Func{Name: n, Line: l, Decorators: append(bases, decs...)}
	if p.punct("{") {
		var outer []*flow.Stmt
		pend, last, noHoist := p.pend, p.last, p.noHoist
		p.inside(func() { f.Body, outer = p.members(n) })
		p.pend, p.last, p.noHoist = pend, last, noHoist
		for _, s := range outer {
			p.emit(s)
		}
	}
	return &flow.Stmt{Op: flow.Class, Fn: f, Line: l, Col: c}
}

// members parses a class body. A function in a field's initializer is
// declared before the class (outer): in the class body a declaration is a
// method.
func (p *parser) members(cls string) (body, outer []*flow.Stmt) {
	for p.i < p.end {
		if p.eat(";") || p.eat(",") {
			continue
		}
		start := p.i
		for _, s := range p.member1(cls) {
			if s.Op == flow.Def && len(s.Fn.Name) > 0 && s.Fn.Name[0] == 0 {
				outer = append(outer, s)
			} else {
				body = append(body, s)
			}
		}
		if p.i == start {
			p.i++
		}
	}
	return body, outer
}

// member1 parses one class member: a method (a function with this as its
// first parameter, unless static), a field (an assignment in the class
// body, which becomes each instance's), or a static block.
func (p *parser) member1(cls string) []*flow.Stmt {
	decs := p.decorators()
	static := false
	for {
		t := p.peek()
		if t == nil {
			return nil
		}
		if t.Kind == lex.Ident && t.Text == "static" && p.isAt(1, "{") {
			l, c := t.Line, t.Col
			p.i++
			var body []*flow.Stmt
			p.inside(func() { body = p.stmts() })
			return []*flow.Stmt{{Op: flow.Block, Body: body, Line: l, Col: c}}
		}
		if t.Kind == lex.Ident && classModifiers[t.Text] && p.keyFollows(1) && !p.nl[p.i+1] {
			static = static || t.Text == "static"
			p.i++
			continue
		}
		break
	}
	p.eat("*")
	t := p.peek()
	if t == nil {
		return nil
	}
	l, c := t.Line, t.Col
	n := ""
	switch {
	case t.Kind == lex.Ident || t.Kind == lex.Number:
		n = t.Text
		p.i++
	case t.Kind == lex.String:
		n = stringValue(t.Text)
		p.i++
	case p.punct("#"):
		p.i++
		if m := p.peek(); m != nil && m.Kind == lex.Ident {
			n = "#" + m.Text
			p.i++
		}
	case p.punct("["):
		if p.indexSignature() {
			p.skipMember()
			return nil
		}
		var k *flow.Expr
		p.inside(func() { k = p.assign() })
		if k.Op == flow.Str {
			n = k.S
		}
	default:
		p.skipMember()
		return nil
	}
	p.eat("?")
	p.eat("!")
	if p.punct("(") || p.punct("<") {
		f := p.funcRest(n, l)
		if f == nil {
			return nil
		}
		f.Class, f.Decorators = cls, decs
		if !static {
			f.Params = append([]flow.Param{{Name: "this"}}, f.Params...)
		}
		return []*flow.Stmt{{Op: flow.Def, Fn: f, Line: l, Col: c}}
	}
	p.typeAnnotation()
	var init *flow.Expr
	pend := p.capture(func() {
		if p.eat("=") {
			init = p.assign()
		}
	})
	p.semi()
	if init == nil {
		return pend
	}
	return append(pend, &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(n, l, c)}, Val: init, Line: l, Col: c})
}

// indexSignature says whether the bracket at the cursor is TypeScript's
// "[key: T]": a colon at its top level.
func (p *parser) indexSignature() bool {
	cl := min(int(p.match[p.i]), p.end)
	for j := p.i + 1; j < cl; j++ {
		t := p.ts[j]
		if t.Kind == lex.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
			j = int(p.match[j])
			continue
		}
		if t.Kind == lex.Punct && t.Text == ":" {
			return true
		}
	}
	return false
}

// skipMember moves past a class member the parser does not lower.
func (p *parser) skipMember() {
	n := 0
	for p.i < p.end {
		if n > 0 && p.lineBreak() {
			return
		}
		n++
		if p.punct(";") {
			p.i++
			return
		}
		if p.punct("{") {
			p.skipItem()
			return
		}
		p.skipItem()
	}
}

// --- modules

// importDecl records an import declaration in the unit's imports: a
// default import is the member "default", a namespace import the whole
// module.
func (p *parser) importDecl(l int32) {
	p.i++
	if p.word("type") && (p.peekAt(1) != nil && (p.peekAt(1).Kind == lex.Ident && p.peekAt(1).Text != "from" || p.isAt(1, "{") || p.isAt(1, "*"))) {
		p.skipStatement() // types only
		return
	}
	var names []flow.Import
	mod := ""
	if t := p.peek(); t != nil && t.Kind == lex.String {
		mod = stringValue(t.Text)
		p.i++
		p.importAttributes()
		p.semi()
		p.u.Imports = append(p.u.Imports, flow.Import{Local: "\x00import " + mod, Module: mod, Line: l})
		return
	}
	if t := p.peek(); t != nil && t.Kind == lex.Ident && t.Text != "from" {
		local := t.Text
		p.i++
		if p.eat("=") {
			// import x = require("m")
			x := p.assign()
			if x.Op == flow.Call && x.X != nil && x.X.Op == flow.Name && x.X.S == "require" && len(x.Args) == 1 && x.Args[0].Op == flow.Str {
				p.u.Imports = append(p.u.Imports, flow.Import{Local: local, Module: x.Args[0].S, Line: l})
			} else {
				p.bind(local, x, l, 0)
			}
			p.semi()
			return
		}
		names = append(names, flow.Import{Local: local, Member: "default"})
		p.eat(",")
	}
	if p.eat("*") {
		if p.eat("as") {
			if t := p.peek(); t != nil && t.Kind == lex.Ident {
				names = append(names, flow.Import{Local: t.Text})
				p.i++
			}
		}
	}
	if p.punct("{") {
		p.inside(func() { names = append(names, p.specifiers(false)...) })
	}
	p.eat("from")
	if t := p.peek(); t != nil && t.Kind == lex.String {
		mod = stringValue(t.Text)
		p.i++
	}
	p.importAttributes()
	p.semi()
	for _, n := range names {
		n.Module, n.Line = mod, l
		p.u.Imports = append(p.u.Imports, n)
	}
}

func (p *parser) importAttributes() {
	if (p.word("with") || p.word("assert")) && p.isAt(1, "{") {
		p.i++
		p.skipItem()
	}
}

// specifiers reads "a, b as c, type T" inside braces: Local is the name
// in this module, Member the name in the other (for an export, Member is
// the local name and Local the exported one).
func (p *parser) specifiers(export bool) []flow.Import {
	var out []flow.Import
	for p.i < p.end {
		if p.eat(",") {
			continue
		}
		start := p.i
		if p.word("type") && p.peekAt(1) != nil && (p.peekAt(1).Kind == lex.Ident || p.peekAt(1).Kind == lex.String) && !p.isAt(1, "as") {
			p.skipToComma() // a type
			continue
		}
		t := p.peek()
		if t.Kind == lex.Ident || t.Kind == lex.String {
			member := t.Text
			if t.Kind == lex.String {
				member = stringValue(t.Text)
			}
			p.i++
			local := member
			if p.eat("as") {
				if a := p.peek(); a != nil && (a.Kind == lex.Ident || a.Kind == lex.String) {
					local = a.Text
					if a.Kind == lex.String {
						local = stringValue(a.Text)
					}
					p.i++
				}
			}
			out = append(out, flow.Import{Local: local, Member: member})
		}
		p.skipToComma()
		if p.i == start {
			p.i++
		}
	}
	return out
}

// skipStatement moves to the end of a statement: a ";" or a line break.
func (p *parser) skipStatement() {
	n := 0
	for p.i < p.end {
		if n > 0 && p.lineBreak() {
			return
		}
		n++
		if p.punct(";") {
			p.i++
			return
		}
		p.skipItem()
	}
}

// exportDecl lowers an export: the exported names live in the unit's
// top-level scope, where importers read them; a default export is the
// name "default"; a re-export is an import under the exported name.
func (p *parser) exportDecl(l, c int32) {
	p.i++
	t := p.peek()
	if t == nil {
		return
	}
	switch {
	case p.word("default"):
		p.i++
		switch {
		case p.word("function") || p.word("async") && p.isAt(1, "function"):
			p.eat("async")
			before := len(p.pend)
			p.funcDecl()
			if len(p.pend) > before {
				if f := p.pend[len(p.pend)-1].Fn; f.Name != "default" {
					p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name("default", l, c)}, Val: name(f.Name, l, c), Line: l, Col: c})
				}
			}
		case p.word("class") || p.word("abstract") && p.isAt(1, "class"):
			p.eat("abstract")
			s := p.class(nil)
			p.emit(s)
			if s.Fn.Name == "" {
				rename(s, "default")
			} else {
				p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name("default", l, c)}, Val: name(s.Fn.Name, l, c), Line: l, Col: c})
			}
		case p.word("interface"):
			p.stmt()
		default:
			p.bind("default", p.assign(), l, c)
			p.semi()
		}
	case p.punct("*"):
		p.i++
		im := flow.Import{Member: "*", Line: l}
		if p.eat("as") {
			if n := p.peek(); n != nil && n.Kind == lex.Ident {
				im.Local, im.Member = n.Text, ""
				p.i++
			}
		}
		p.eat("from")
		if m := p.peek(); m != nil && m.Kind == lex.String {
			im.Module = stringValue(m.Text)
			p.i++
			p.u.Imports = append(p.u.Imports, im)
		}
		p.importAttributes()
		p.semi()
	case p.punct("{"):
		var specs []flow.Import
		p.inside(func() { specs = p.specifiers(true) })
		if p.eat("from") {
			if m := p.peek(); m != nil && m.Kind == lex.String {
				mod := stringValue(m.Text)
				p.i++
				for _, s := range specs {
					p.u.Imports = append(p.u.Imports, flow.Import{Local: s.Local, Module: mod, Member: s.Member, Line: l})
				}
			}
			p.importAttributes()
		} else {
			for _, s := range specs {
				if s.Local != s.Member {
					p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(s.Local, l, c)}, Val: name(s.Member, l, c), Line: l, Col: c})
				}
			}
		}
		p.semi()
	case p.punct("="):
		// TypeScript's export =
		p.i++
		p.exports = true
		p.emit(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{name(exportsName, l, c)}, Val: p.assign(), Line: l, Col: c})
		p.semi()
	case p.word("type") && p.isAt(1, "{"), p.word("as"):
		p.skipStatement()
	default:
		p.stmt()
	}
}
