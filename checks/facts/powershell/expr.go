package powershell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

// --- arguments (a command's words)

// argValue reads one argument: an element, or a comma list of them (an
// array).
func (p *parser) argValue() *flow.Expr {
	ln, col := p.at()
	first := p.argPrimary()
	p.skip(false)
	if p.eof() || p.src[p.i] != ',' {
		return first
	}
	lst := &flow.Expr{Op: flow.List, Args: []*flow.Expr{first}, Line: ln, Col: col}
	for !p.eof() && p.src[p.i] == ',' {
		p.i++
		p.skip(true)
		if p.ends() {
			break
		}
		start := p.i
		lst.Args = append(lst.Args, p.argPrimary())
		if p.i == start {
			break
		}
		p.skip(false)
	}
	return lst
}

// argPrimary reads one argument element: a variable, a string, a
// (sub)expression, a hashtable, a script block, a static member, or a
// bare word (which may hold variables).
func (p *parser) argPrimary() *flow.Expr {
	if p.eof() {
		return &flow.Expr{Op: flow.Other}
	}
	switch c := p.src[p.i]; {
	case c == '$', c == '(', c == '@' && (p.peek(1) == '(' || p.peek(1) == '{' || p.peek(1) == '"' || p.peek(1) == '\''):
		return p.postfix(p.primary(), true)
	case c == '\'' || c == '"':
		x := p.primary()
		if !p.eof() && !p.ends() && p.src[p.i] != ' ' && p.src[p.i] != '\t' && p.src[p.i] != ',' {
			// "a"b: one word
			rest := p.bareWord()
			return &flow.Expr{Op: flow.Fmt, Args: []*flow.Expr{x, rest}, Line: x.Line, Col: x.Col}
		}
		return x
	case c == '{':
		return p.scriptBlock()
	case c == '[':
		if p.typeLiteralAhead() {
			return p.postfix(p.primary(), true)
		}
	}
	w := p.bareWord()
	if w.Op == flow.Str {
		if n, ok := number(w.S); ok {
			return &flow.Expr{Op: flow.Num, S: n, Line: w.Line, Col: w.Col}
		}
		if x := providerPath(w); x != nil {
			return x
		}
	}
	return w
}

// providerPath lowers the environment drive: "env:" is the whole
// environment, "env:NAME" one variable.
func providerPath(w *flow.Expr) *flow.Expr {
	s := strings.ToLower(w.S)
	if s != "env:" && !strings.HasPrefix(s, "env:") && !strings.HasPrefix(s, "env:\\") {
		return nil
	}
	env := &flow.Expr{Op: flow.Name, S: "$env", Line: w.Line, Col: w.Col}
	name := strings.TrimLeft(w.S[4:], `\/`)
	if name == "" || strings.ContainsAny(name, "*?") {
		return env
	}
	return &flow.Expr{Op: flow.Index, X: env, Args: []*flow.Expr{str(name, w.Line, w.Col)}, Line: w.Line, Col: w.Col}
}

// bareText reads a bare word's raw text (a function or member name).
func (p *parser) bareText() string {
	start := p.i
	for !p.eof() {
		c := p.src[p.i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == '{' || c == ')' || c == '}' || c == ';' || c == '|' || c == ',' || c == '=' {
			break
		}
		p.i++
	}
	return p.src[start:p.i]
}

// bareWord reads a word in argument mode: it runs to a blank or a
// separator, quotes inside it join their text, and $variables in it
// expand.
func (p *parser) bareWord() *flow.Expr {
	ln, col := p.at()
	var parts []*flow.Expr
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, str(lit.String(), ln, col))
			lit.Reset()
		}
	}
loop:
	for !p.eof() {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == ')' || c == '}' || c == ',' || c == '{' || c == '(' && lit.Len() == 0 && len(parts) == 0:
			break loop
		case c == '&' && p.peek(1) == '&':
			break loop
		case c == '>':
			break loop
		case c == '`' && p.i+1 < len(p.src):
			if p.peek(1) == '\n' || p.peek(1) == '\r' {
				break loop
			}
			lit.WriteString(escape(p.src[p.i+1]))
			p.i += 2
		case c == '\'':
			flush()
			parts = append(parts, p.primary())
		case c == '"':
			flush()
			parts = append(parts, p.primary())
		case c == '$' && p.i+1 < len(p.src) && (isLetter(p.peek(1)) || p.peek(1) == '{' || p.peek(1) == '(' || p.peek(1) == '_'):
			flush()
			parts = append(parts, p.variableOrSub())
		case c == '(':
			// a call in a name: Write-Host(1) reads as Write-Host (1)
			break loop
		default:
			lit.WriteByte(c)
			p.i++
		}
	}
	flush()
	switch len(parts) {
	case 0:
		return str("", ln, col)
	case 1:
		return parts[0]
	}
	all := true
	var b strings.Builder
	for _, x := range parts {
		if x.Op != flow.Str {
			all = false
			break
		}
		b.WriteString(x.S)
	}
	if all {
		return str(b.String(), ln, col)
	}
	return &flow.Expr{Op: flow.Fmt, Args: parts, Line: ln, Col: col}
}

// number reads a numeric literal (0x1F, 10, 1.5, 5kb, 10L); ok false
// when the text is not one.
func number(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	t := strings.ToLower(s)
	t = strings.TrimPrefix(t, "-")
	for _, suf := range []string{"kb", "mb", "gb", "tb", "pb"} {
		t = strings.TrimSuffix(t, suf)
	}
	t = strings.TrimRight(t, "ldu")
	if strings.HasPrefix(t, "0x") {
		if _, err := strconv.ParseUint(t[2:], 16, 64); err == nil {
			return s, true
		}
		return "", false
	}
	if t == "" || !(t[0] >= '0' && t[0] <= '9' || t[0] == '.') {
		return "", false
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return s, true
	}
	return "", false
}

// --- expressions

// expression reads an expression by PowerShell's operator precedence.
func (p *parser) expression() *flow.Expr {
	if !p.enter() {
		return &flow.Expr{Op: flow.Other}
	}
	defer p.leave()
	return p.logical()
}

// op reads a "-word" operator at the cursor when it is one of ops, and
// the blanks after it; "" leaves the cursor.
func (p *parser) op(ops ...string) string {
	save := p.i
	p.skip(false)
	if p.eof() || p.src[p.i] != '-' || !isLetter(p.peek(1)) {
		p.i = save
		return ""
	}
	j := p.i + 1
	for j < len(p.src) && isWord(p.src[j]) {
		j++
	}
	w := strings.ToLower(p.src[p.i+1 : j])
	base := w
	if len(w) > 2 && (w[0] == 'c' || w[0] == 'i') && w != "contains" && w != "in" && w != "is" && w != "isnot" {
		base = w[1:] // -creplace, -ieq
	}
	for _, o := range ops {
		if o == w || o == base {
			p.i = j
			p.skip(true)
			return o
		}
	}
	p.i = save
	return ""
}

func bin(op string, a, b *flow.Expr) *flow.Expr {
	return &flow.Expr{Op: flow.Bin, S: op, Args: []*flow.Expr{a, b}, Line: a.Line, Col: a.Col}
}

func (p *parser) logical() *flow.Expr {
	x := p.comparison()
	for {
		o := p.op("and", "or", "xor")
		if o == "" {
			return x
		}
		y := p.comparison()
		if o == "xor" {
			x = bin("^", x, y)
		} else {
			x = bin("||", x, y) // either side may be the value
		}
	}
}

var comparisons = []string{"eq", "ne", "gt", "ge", "lt", "le", "like", "notlike", "match", "notmatch", "contains",
	"notcontains", "in", "notin", "is", "isnot", "as", "replace", "split", "join"}

func (p *parser) comparison() *flow.Expr {
	x := p.bitwise()
	for {
		o := p.op(comparisons...)
		if o == "" {
			return x
		}
		y := p.bitwise()
		ln, col := x.Line, x.Col
		switch o {
		case "replace":
			// "s" -replace "a", "b" is s.replace(a, b)
			args := spread(y)
			x = &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: x, S: "replace", Line: ln, Col: col}, Args: args, Keys: make([]string, len(args)), Line: ln, Col: col}
		case "join":
			// $a -join "," is ",".join($a)
			x = &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: y, S: "join", Line: ln, Col: col}, Args: []*flow.Expr{x}, Keys: []string{""}, Line: ln, Col: col}
		case "split", "as":
			x = other(ln, col, x, y)
		default:
			x = bin("-"+o, x, y)
		}
	}
}

func (p *parser) bitwise() *flow.Expr {
	x := p.additive()
	for {
		o := p.op("band", "bor", "bxor", "shl", "shr")
		if o == "" {
			return x
		}
		x = bin("-"+o, x, p.additive())
	}
}

func (p *parser) additive() *flow.Expr {
	x := p.multiplicative()
	for {
		o := p.arith('+', '-')
		if o == 0 {
			return x
		}
		x = bin(string(o), x, p.multiplicative())
	}
}

func (p *parser) multiplicative() *flow.Expr {
	x := p.negation()
	for {
		o := p.arith('*', '/', '%')
		if o == 0 {
			return x
		}
		x = bin(string(o), x, p.negation())
	}
}

// arith reads a one-character arithmetic operator (not "-x", "++",
// "+=").
func (p *parser) arith(ops ...byte) byte {
	save := p.i
	p.skip(false)
	if p.eof() {
		p.i = save
		return 0
	}
	c := p.src[p.i]
	for _, o := range ops {
		if c != o {
			continue
		}
		n := p.peek(1)
		if n == '=' || n == o && (o == '+' || o == '-') || o == '-' && isLetter(n) {
			break
		}
		p.i++
		p.skip(true)
		return o
	}
	p.i = save
	return 0
}

func (p *parser) negation() *flow.Expr {
	p.skip(false)
	if !p.eof() && (p.src[p.i] == '-' || p.src[p.i] == '+') && !isLetter(p.peek(1)) && p.peek(1) != p.src[p.i] {
		ln, col := p.at()
		neg := p.src[p.i] == '-'
		p.i++
		x := p.negation()
		if neg && x.Op == flow.Num {
			return &flow.Expr{Op: flow.Num, S: "-" + x.S, Line: ln, Col: col}
		}
		return other(ln, col, x)
	}
	return p.format()
}

// format reads "fmt" -f a, b: the string with each {N} replaced.
func (p *parser) format() *flow.Expr {
	x := p.rangeExpr()
	for {
		if p.op("f") == "" {
			return x
		}
		args := spread(p.rangeExpr())
		x = formatString(x, args)
	}
}

func formatString(f *flow.Expr, args []*flow.Expr) *flow.Expr {
	ln, col := f.Line, f.Col
	if f.Op != flow.Str {
		return other(ln, col, append([]*flow.Expr{f}, args...)...)
	}
	out := &flow.Expr{Op: flow.Fmt, Line: ln, Col: col}
	var lit strings.Builder
	s := f.S
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case s[i] == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case s[i] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				lit.WriteString(s[i:])
				i = len(s)
				continue
			}
			field := s[i+1 : i+end]
			if k := strings.IndexAny(field, ",:"); k >= 0 {
				field = field[:k]
			}
			n, err := strconv.Atoi(strings.TrimSpace(field))
			if err != nil || n < 0 || n >= len(args) {
				lit.WriteString(s[i : i+end+1])
			} else {
				if lit.Len() > 0 {
					out.Args = append(out.Args, str(lit.String(), ln, col))
					lit.Reset()
				}
				out.Args = append(out.Args, args[n])
			}
			i += end
		default:
			lit.WriteByte(s[i])
		}
	}
	if lit.Len() > 0 {
		out.Args = append(out.Args, str(lit.String(), ln, col))
	}
	return out
}

func (p *parser) rangeExpr() *flow.Expr {
	x := p.not()
	save := p.i
	p.skip(false)
	if p.has("..") {
		p.i += 2
		p.skip(true)
		return other(x.Line, x.Col, x, p.not())
	}
	p.i = save
	return x
}

func (p *parser) not() *flow.Expr {
	p.skip(false)
	ln, col := p.at()
	if !p.eof() && p.src[p.i] == '!' {
		p.i++
		return other(ln, col, p.not())
	}
	if p.op("not", "bnot") != "" {
		return other(ln, col, p.not())
	}
	return p.comma()
}

// comma reads "a, b, c" (an array) unless commas separate arguments.
func (p *parser) comma() *flow.Expr {
	p.skip(false)
	ln, col := p.at()
	if !p.noComma && !p.eof() && p.src[p.i] == ',' { // ,$x: an array of one
		p.i++
		p.skip(true)
		return &flow.Expr{Op: flow.List, Args: []*flow.Expr{p.unaryJoin()}, Line: ln, Col: col}
	}
	x := p.unaryJoin()
	if p.noComma {
		return x
	}
	save := p.i
	p.skip(false)
	if p.eof() || p.src[p.i] != ',' {
		p.i = save
		return x
	}
	lst := &flow.Expr{Op: flow.List, Args: []*flow.Expr{x}, Line: ln, Col: col}
	for !p.eof() && p.src[p.i] == ',' {
		p.i++
		p.skip(true)
		start := p.i
		lst.Args = append(lst.Args, p.unaryJoin())
		if p.i == start {
			break
		}
		save = p.i
		p.skip(false)
		if p.eof() || p.src[p.i] != ',' {
			p.i = save
			break
		}
	}
	return lst
}

func (p *parser) unaryJoin() *flow.Expr {
	ln, col := p.at()
	switch p.op("join", "split") {
	case "join":
		x := p.unaryJoin()
		return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: str("", ln, col), S: "join", Line: ln, Col: col}, Args: []*flow.Expr{x}, Keys: []string{""}, Line: ln, Col: col}
	case "split":
		return other(ln, col, p.unaryJoin())
	}
	return p.cast()
}

// cast reads "[T] operand" as the operand ([char] of a number is its
// character), or a type literal.
func (p *parser) cast() *flow.Expr {
	p.skip(false)
	if p.eof() || p.src[p.i] != '[' || !p.typeLiteralAhead() {
		return p.postfix(p.primary(), false)
	}
	ln, col := p.at()
	save := p.i
	t := TypeName(p.typeName())
	if !p.eof() && p.src[p.i] == ':' && p.peek(1) == ':' {
		p.i = save
		return p.postfix(p.primary(), false)
	}
	p.skip(false)
	if p.eof() || p.ends() || strings.IndexByte(",=+*/%", p.src[p.i]) >= 0 || p.src[p.i] == '-' && isLetter(p.peek(1)) && p.opAhead() {
		return &flow.Expr{Op: flow.Name, S: t, Line: ln, Col: col}
	}
	x := p.cast()
	switch t {
	case "char", "char[]":
		return chars(x)
	case "scriptblock":
		// [scriptblock]"code" is code the script may run
		return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: &flow.Expr{Op: flow.Name, S: "scriptblock", Line: ln, Col: col}, S: "create", Line: ln, Col: col}, Args: []*flow.Expr{x}, Keys: []string{""}, Line: ln, Col: col}
	}
	return x
}

// opAhead reports a "-word" that is an operator, not a negative number.
func (p *parser) opAhead() bool {
	j := p.i + 1
	for j < len(p.src) && isWord(p.src[j]) {
		j++
	}
	return j > p.i+1
}

// chars computes [char] casts of number literals: [char]73 is "I".
func chars(x *flow.Expr) *flow.Expr {
	conv := func(e *flow.Expr) *flow.Expr {
		if e.Op != flow.Num {
			return e
		}
		t, base := strings.ToLower(e.S), 10
		if h, ok := strings.CutPrefix(t, "0x"); ok {
			t, base = h, 16
		}
		n, err := strconv.ParseInt(t, base, 32)
		if err != nil || n < 0 || !utf8.ValidRune(rune(n)) {
			return e
		}
		return str(string(rune(n)), e.Line, e.Col)
	}
	if x.Op == flow.List {
		out := &flow.Expr{Op: flow.List, Line: x.Line, Col: x.Col}
		for _, a := range x.Args {
			out.Args = append(out.Args, conv(a))
		}
		return out
	}
	return conv(x)
}

// typeLiteralAhead reports "[Name...]" at the cursor (not an index or a
// wildcard word).
func (p *parser) typeLiteralAhead() bool {
	j := p.i + 1
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
		j++
	}
	return j < len(p.src) && isLetter(p.src[j])
}

// typeName reads "[...]" with nested brackets and returns its text.
func (p *parser) typeName() string {
	start := p.i
	depth := 0
	for !p.eof() {
		c := p.src[p.i]
		p.i++
		if c == '[' {
			depth++
		} else if c == ']' {
			depth--
			if depth == 0 {
				break
			}
		} else if c == '\n' {
			break
		}
	}
	return p.src[start:p.i]
}

// postfix reads member access, method calls, static members and indexes
// after a primary; in argument mode a member must follow without a
// blank, as it must everywhere.
func (p *parser) postfix(x *flow.Expr, arg bool) *flow.Expr {
	for i := 0; i < 4096 && !p.eof(); i++ {
		c := p.src[p.i]
		switch {
		case c == '.' && p.peek(1) != '.' && (isLetter(p.peek(1)) || p.peek(1) == '"' || p.peek(1) == '\'' || p.peek(1) == '$' || p.peek(1) == '('),
			c == '?' && p.peek(1) == '.' && isLetter(p.peek(2)):
			if c == '?' {
				p.i++
			}
			p.i++
			x = p.member(x)
		case c == ':' && p.peek(1) == ':':
			p.i += 2
			x = p.member(x)
		case c == '[':
			ln, col := p.at()
			p.i++
			p.skip(true)
			saved := p.noComma
			p.noComma = false
			k := p.expression()
			p.noComma = saved
			p.skip(true)
			if !p.eof() && p.src[p.i] == ']' {
				p.i++
			}
			x = &flow.Expr{Op: flow.Index, X: x, Args: []*flow.Expr{k}, Line: ln, Col: col}
		default:
			return x
		}
	}
	return x
}

// member reads a member name and, when "(" follows, its call.
func (p *parser) member(x *flow.Expr) *flow.Expr {
	ln, col := p.at()
	var name string
	var dyn *flow.Expr
	switch c := p.peek(0); {
	case c == '"' || c == '\'':
		s := p.primary()
		if s.Op == flow.Str {
			name = s.S
		} else {
			dyn = s
		}
	case c == '$' || c == '(':
		dyn = p.primary()
	default:
		j := p.i
		for j < len(p.src) && isWord(p.src[j]) {
			j++
		}
		name = p.src[p.i:j]
		p.i = j
	}
	name = strings.ToLower(name)
	if dyn != nil {
		// $o.$name: a member named at run time; the value still flows
		x = other(ln, col, x, dyn)
	}
	if !p.eof() && p.src[p.i] == '(' {
		args := p.callArgs()
		if name == "new" && x.Op == flow.Name && !strings.HasPrefix(x.S, "$") {
			return &flow.Expr{Op: flow.Call, X: x, Args: args, Keys: make([]string, len(args)), Line: ln, Col: col}
		}
		if dyn != nil {
			return other(ln, col, append([]*flow.Expr{x}, args...)...)
		}
		return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: x, S: name, Line: ln, Col: col}, Args: args, Keys: make([]string, len(args)), Line: ln, Col: col}
	}
	if dyn != nil {
		return x
	}
	return &flow.Expr{Op: flow.Attr, X: x, S: name, Line: ln, Col: col}
}

// callArgs reads "(a, b)": a method's arguments.
func (p *parser) callArgs() []*flow.Expr {
	p.i++ // (
	saved := p.noComma
	p.noComma = true
	defer func() { p.noComma = saved }()
	var out []*flow.Expr
	for {
		p.skip(true)
		if p.eof() {
			return out
		}
		switch p.src[p.i] {
		case ')':
			p.i++
			return out
		case ',':
			p.i++
			continue
		}
		start := p.i
		out = append(out, p.expression())
		if p.i == start {
			p.i++
		}
	}
}

// primary reads a variable, a literal, a subexpression, a hashtable, a
// script block or a type.
func (p *parser) primary() *flow.Expr {
	p.skip(false)
	ln, col := p.at()
	if p.eof() {
		return other(ln, col)
	}
	c := p.src[p.i]
	switch {
	case c == '$':
		return p.variableOrSub()
	case c == '\'':
		return str(p.singleQuoted(), ln, col)
	case c == '"':
		return p.doubleQuoted()
	case c == '@' && p.peek(1) == '"' && p.hereStart():
		return p.hereString(true)
	case c == '@' && p.peek(1) == '\'' && p.hereStart():
		return p.hereString(false)
	case c == '@' && p.peek(1) == '(':
		p.i++
		return p.subexpr(true)
	case c == '@' && p.peek(1) == '{':
		return p.hashtable()
	case c == '(':
		return p.paren()
	case c == '{':
		return p.scriptBlock()
	case c == '[':
		t := TypeName(p.typeName())
		return &flow.Expr{Op: flow.Name, S: t, Line: ln, Col: col}
	case c >= '0' && c <= '9' || c == '.' && p.peek(1) >= '0' && p.peek(1) <= '9':
		j := p.i
		for j < len(p.src) && (isWord(p.src[j]) || p.src[j] == '.' && j+1 < len(p.src) && p.src[j+1] != '.') {
			j++
		}
		if n, ok := number(p.src[p.i:j]); ok {
			p.i = j
			return &flow.Expr{Op: flow.Num, S: n, Line: ln, Col: col}
		}
	}
	if p.commandStart() {
		// a command in expression position: (Get-Date) reads it so
		return p.command(nil)
	}
	w := p.bareWord()
	if w.Op == flow.Str && w.S == "" && !p.eof() {
		p.i++ // a character no expression starts with
		p.note(ln, "a PowerShell character the reader could not place")
		return other(ln, col)
	}
	return w
}

// paren reads "( pipeline )" or "( statements )".
func (p *parser) paren() *flow.Expr {
	ln, col := p.at()
	p.i++
	saved := p.noComma
	p.noComma = false
	defer func() { p.noComma = saved }()
	ss := p.statements(')', body{output: true})
	if !p.eof() && p.src[p.i] == ')' {
		p.i++
	}
	if len(ss) == 1 && ss[0].Op == flow.Return && ss[0].Val != nil {
		return ss[0].Val
	}
	if len(ss) == 1 && (ss[0].Op == flow.Assign || ss[0].Op == flow.Aug) && len(ss[0].Dst) == 1 {
		// ($x = value) assigns in the enclosing scope and is the value
		p.hoist = append(p.hoist, ss[0])
		return ss[0].Dst[0]
	}
	fn := &flow.Func{Name: "<paren>", Line: ln, Body: ss}
	return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Lambda, Fn: fn, Line: ln, Col: col}, Line: ln, Col: col}
}

// subexpr reads "$( ... )" or "@( ... )": the output of its statements.
func (p *parser) subexpr(array bool) *flow.Expr {
	ln, col := p.at()
	x := p.paren()
	if array && x.Op != flow.List {
		return &flow.Expr{Op: flow.List, Args: []*flow.Expr{x}, Line: ln, Col: col}
	}
	return x
}

// scriptBlock reads "{ ... }" as a function value.
func (p *parser) scriptBlock() *flow.Expr {
	ln, col := p.at()
	fn := &flow.Func{Name: "<scriptblock>", Line: ln}
	fn.Params, fn.Body = p.scriptBody(nil)
	return &flow.Expr{Op: flow.Lambda, Fn: fn, Line: ln, Col: col}
}

// hashtable reads "@{ key = value; ... }" as a dictionary with
// lower-cased keys (PowerShell's keys are case-insensitive).
func (p *parser) hashtable() *flow.Expr {
	ln, col := p.at()
	p.i += 2
	d := &flow.Expr{Op: flow.Dict, Line: ln, Col: col}
	for {
		p.skip(true)
		for !p.eof() && p.src[p.i] == ';' {
			p.i++
			p.skip(true)
		}
		if p.eof() {
			return d
		}
		if p.src[p.i] == '}' {
			p.i++
			return d
		}
		start := p.i
		var key *flow.Expr
		switch p.src[p.i] {
		case '\'', '"', '(', '$':
			key = p.primary()
		default:
			key = str(p.bareText(), ln, col)
		}
		p.skip(false)
		if !p.eof() && p.src[p.i] == '=' {
			p.i++
			p.skip(true)
			k := ""
			if key.Op == flow.Str {
				k = strings.ToLower(key.S)
			}
			saved := p.noComma
			p.noComma = false
			v := p.assignValue()
			p.noComma = saved
			d.Keys = append(d.Keys, k)
			d.Args = append(d.Args, v)
		}
		if p.i == start {
			p.i++
		}
	}
}

// --- variables

// variableOrSub reads "$(...)" or a variable.
func (p *parser) variableOrSub() *flow.Expr {
	if p.peek(1) == '(' {
		p.i++
		return p.subexpr(false)
	}
	return p.variable()
}

// variable reads "$name", "${name}", "$scope:name", "$env:NAME".
func (p *parser) variable() *flow.Expr {
	ln, col := p.at()
	if p.eof() || p.src[p.i] != '$' {
		return other(ln, col)
	}
	p.i++
	return p.variableNamed()
}

// variableNamed reads a variable's name after its sigil.
func (p *parser) variableNamed() *flow.Expr {
	ln, col := p.at()
	var name string
	switch {
	case p.eof():
		return str("$", ln, col)
	case p.src[p.i] == '{':
		end := strings.IndexByte(p.src[p.i:], '}')
		if end < 0 {
			name = p.src[p.i+1:]
			p.i = len(p.src)
		} else {
			name = p.src[p.i+1 : p.i+end]
			p.i += end + 1
		}
		name = strings.ReplaceAll(name, "`", "")
	case p.src[p.i] == '$' || p.src[p.i] == '?' || p.src[p.i] == '^':
		name = p.src[p.i : p.i+1]
		p.i++
	default:
		j := p.i
		for j < len(p.src) && (isWord(p.src[j]) || p.src[j] == ':' && j+1 < len(p.src) && (isLetter(p.src[j+1]) || p.src[j+1] == '{') && strings.IndexByte(p.src[p.i:j], ':') < 0) {
			j++
		}
		name = p.src[p.i:j]
		p.i = j
		if name == "" {
			return str("$", ln, col)
		}
	}
	return varExpr(name, ln, col)
}

// varExpr lowers a variable name: the environment drive, scope
// qualifiers, and the automatic variables whose values are known.
func varExpr(name string, ln, col int32) *flow.Expr {
	lower := strings.ToLower(name)
	if scope, rest, ok := strings.Cut(lower, ":"); ok {
		switch scope {
		case "env":
			return &flow.Expr{Op: flow.Index, X: &flow.Expr{Op: flow.Name, S: "$env", Line: ln, Col: col}, Args: []*flow.Expr{str(name[len(scope)+1:], ln, col)}, Line: ln, Col: col}
		case "global", "script", "local", "private", "using", "variable", "workflow":
			lower = rest
		}
	}
	switch lower {
	case "true", "false", "null":
		return &flow.Expr{Op: flow.Num, S: lower, Line: ln, Col: col}
	case "home":
		return str("~", ln, col)
	case "pwd", "psscriptroot":
		return str(".", ln, col)
	case "profile":
		return str("~/documents/windowspowershell/microsoft.powershell_profile.ps1", ln, col)
	case "psitem":
		lower = "_"
	}
	return &flow.Expr{Op: flow.Name, S: "$" + lower, Line: ln, Col: col}
}

// --- strings

func escape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 'f':
		return "\f"
	case 'v':
		return "\v"
	case 'e':
		return "\x1b"
	}
	return string(c)
}

// singleQuoted reads a single-quoted string (a doubled quote is one quote).
func (p *parser) singleQuoted() string {
	p.i++
	var b strings.Builder
	for !p.eof() {
		c := p.src[p.i]
		p.i++
		if c == '\'' {
			if !p.eof() && p.src[p.i] == '\'' {
				b.WriteByte('\'')
				p.i++
				continue
			}
			return b.String()
		}
		b.WriteByte(c)
	}
	return b.String()
}

// doubleQuoted reads "..." with its escapes and expansions.
func (p *parser) doubleQuoted() *flow.Expr {
	ln, col := p.at()
	p.i++
	return p.expandable(func() bool {
		if p.src[p.i] != '"' {
			return false
		}
		if p.peek(1) == '"' {
			return false
		}
		p.i++
		return true
	}, ln, col, true)
}

// expandable reads an expanding string's body up to the point end
// reports (and consumes).
func (p *parser) expandable(end func() bool, ln, col int32, quotes bool) *flow.Expr {
	if !p.enter() {
		return other(ln, col)
	}
	defer p.leave()
	var parts []*flow.Expr
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, str(lit.String(), ln, col))
			lit.Reset()
		}
	}
	for !p.eof() {
		if end() {
			break
		}
		c := p.src[p.i]
		switch {
		case quotes && c == '"' && p.peek(1) == '"':
			lit.WriteByte('"')
			p.i += 2
		case c == '`' && p.i+1 < len(p.src):
			lit.WriteString(escape(p.src[p.i+1]))
			p.i += 2
		case c == '$' && p.i+1 < len(p.src) && (isLetter(p.peek(1)) || p.peek(1) == '{' || p.peek(1) == '(' || p.peek(1) == '_'):
			flush()
			if p.peek(1) == '(' {
				p.i++
				parts = append(parts, p.paren())
			} else {
				parts = append(parts, p.variable())
			}
		default:
			lit.WriteByte(c)
			p.i++
		}
	}
	flush()
	switch len(parts) {
	case 0:
		return str("", ln, col)
	case 1:
		if parts[0].Op == flow.Str {
			return parts[0]
		}
	}
	return &flow.Expr{Op: flow.Fmt, Args: parts, Line: ln, Col: col}
}

// hereStart reports @" or @' followed by the end of its line.
func (p *parser) hereStart() bool {
	j := p.i + 2
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\r') {
		j++
	}
	return j >= len(p.src) || p.src[j] == '\n'
}

// hereString reads @" ... "@ (expanding) or @' ... '@ (literal): the text
// between the opening line and a line that starts with the closer.
func (p *parser) hereString(expand bool) *flow.Expr {
	ln, col := p.at()
	q := p.src[p.i+1]
	nl := strings.IndexByte(p.src[p.i:], '\n')
	if nl < 0 {
		p.i = len(p.src)
		return str("", ln, col)
	}
	p.i += nl + 1
	closer := string(q) + "@"
	atClose := func() bool {
		// the closer starts a line (after blanks)
		k := p.i
		if k > 0 && p.src[k-1] != '\n' {
			return false
		}
		for k < len(p.src) && (p.src[k] == ' ' || p.src[k] == '\t') {
			k++
		}
		if strings.HasPrefix(p.src[k:], closer) {
			p.i = k + 2
			return true
		}
		return false
	}
	if !expand {
		start := p.i
		for !p.eof() {
			if atClose() {
				return str(strings.TrimSuffix(strings.TrimSuffix(p.src[start:max(start, p.i-2)], "\n"), "\r"), ln, col)
			}
			p.i++
		}
		return str(p.src[start:], ln, col)
	}
	x := p.expandable(atClose, ln, col, false)
	// the newline before the closer is not part of the text
	if x.Op == flow.Str {
		x.S = strings.TrimSuffix(strings.TrimSuffix(x.S, "\n"), "\r")
	} else if n := len(x.Args); n > 0 && x.Args[n-1].Op == flow.Str {
		x.Args[n-1].S = strings.TrimSuffix(strings.TrimSuffix(x.Args[n-1].S, "\n"), "\r")
	}
	return x
}
