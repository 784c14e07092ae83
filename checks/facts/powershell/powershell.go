// Package powershell lowers PowerShell scripts into the flow engine's
// program form (checks/facts/flow). No well-kept Go parser of PowerShell
// exists, so this is a tolerant recursive-descent reader over the text:
// statements, pipelines, commands with their parameters, expressions,
// strings with their interpolations, script blocks and functions. A
// command is lowered as a shell command is (its name, then its words,
// parameters as "-name" words, pipeline input under "<stdin>"), so the
// vocabulary's powershell section reads its arguments the way it reads a
// shell program's; .NET calls ([Convert]::FromBase64String, a
// WebClient's DownloadString) are calls of qualified names. PowerShell is
// case-insensitive: commands, parameters, variables, types and members
// are lowered in lower case. Anything the reader cannot place is skipped
// one character at a time and recorded, so broken syntax hides nothing
// that follows it.
package powershell

import (
	"sort"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

// Limits on untrusted input.
const (
	MaxBytes = 1 << 20
	MaxDepth = 100 // nesting of statements, expressions and strings followed
)

// Version is the producer's version.
const Version = "1.0.0"

// Stdin is the keyword under which a command receives its pipeline input.
const Stdin = "<stdin>"

// PowerShell reads typographic quotes and dashes as their ASCII forms; so
// does the reader, rune for rune, keeping every line where it is.
var typographic = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u2013", "-", "\u2014", "-", "\u2015", "-")

// Lower parses src as PowerShell; lines are offset by lineBase.
func Lower(path, src string, lineBase int32) *flow.Unit {
	u := &flow.Unit{Path: path, Lang: "powershell", Top: &flow.Func{}}
	if len(src) > MaxBytes {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "PowerShell script past the first 1 MiB not analysed"})
		src = src[:MaxBytes]
	}
	src = typographic.Replace(src)
	p := &parser{src: src, u: u, base: lineBase}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			p.nl = append(p.nl, i)
		}
	}
	u.Top.Body = p.script()
	return u
}

type parser struct {
	src   string
	i     int
	u     *flow.Unit
	base  int32
	nl    []int
	depth int
	deep  bool
	noted map[int32]bool
	// noComma stops an expression at a top-level comma (method
	// arguments, where commas separate arguments).
	noComma bool
	// hoist holds assignments made inside an expression, "($i = f)",
	// which bind in the enclosing scope: they run before the statement
	// that holds them.
	hoist []*flow.Stmt
}

func (p *parser) line(off int) int32 {
	return p.base + 1 + int32(sort.SearchInts(p.nl, off))
}

func (p *parser) col(off int) int32 {
	k := sort.SearchInts(p.nl, off)
	start := 0
	if k > 0 {
		start = p.nl[k-1] + 1
	}
	return int32(off - start + 1)
}

func (p *parser) at() (int32, int32) { return p.line(p.i), p.col(p.i) }

func (p *parser) note(line int32, what string) {
	if p.noted == nil {
		p.noted = map[int32]bool{}
	}
	if p.noted[line] || len(p.u.Unresolved) >= 64 {
		return
	}
	p.noted[line] = true
	p.u.Unresolved = append(p.u.Unresolved, flow.Note{Line: line, What: what})
}

// enter counts one level of nesting; past MaxDepth the rest of the
// script is abandoned and recorded.
func (p *parser) enter() bool {
	p.depth++
	if p.depth <= MaxDepth {
		return true
	}
	if !p.deep {
		p.deep = true
		p.note(p.line(p.i), "PowerShell nested too deeply to follow; the rest of the script is not analysed")
	}
	p.i = len(p.src)
	return false
}

func (p *parser) leave() { p.depth-- }

func (p *parser) eof() bool { return p.i >= len(p.src) }

func (p *parser) peek(k int) byte {
	if p.i+k < len(p.src) && p.i+k >= 0 {
		return p.src[p.i+k]
	}
	return 0
}

func (p *parser) has(s string) bool { return p.i < len(p.src) && strings.HasPrefix(p.src[p.i:], s) }

// skip passes blanks, comments and line continuations; newlines too when
// nl is set.
func (p *parser) skip(nl bool) {
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0xa0:
			p.i++
		case c == '\n' && nl:
			p.i++
		case c == '`' && (p.peek(1) == '\n' || p.peek(1) == '\r' && p.peek(2) == '\n'):
			p.i += 2
		case c == '#':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '<' && p.peek(1) == '#':
			end := strings.Index(p.src[p.i+2:], "#>")
			if end < 0 {
				p.i = len(p.src)
			} else {
				p.i += end + 4
			}
		case c == 0xc2 && p.peek(1) == 0xa0: // a no-break space
			p.i += 2
		default:
			return
		}
	}
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// keyword reads a word at the cursor, lower-cased, without moving.
func (p *parser) keyword() string {
	j := p.i
	for j < len(p.src) && (isWord(p.src[j]) || p.src[j] == '-') {
		j++
	}
	return strings.ToLower(p.src[p.i:j])
}

// ends reports a statement's end at the cursor.
func (p *parser) ends() bool {
	if p.eof() {
		return true
	}
	switch p.src[p.i] {
	case '\n', ';', ')', '}':
		return true
	case '|':
		return true
	case '&':
		return p.peek(1) == '&'
	}
	return false
}

func str(s string, ln, col int32) *flow.Expr {
	return &flow.Expr{Op: flow.Str, S: s, Line: ln, Col: col}
}

func other(ln, col int32, args ...*flow.Expr) *flow.Expr {
	return &flow.Expr{Op: flow.Other, Args: args, Line: ln, Col: col}
}

// --- statements

// body is where statements are: a function's and a script block's
// statements output their values (a PowerShell function returns all its
// output), a script's top level does not.
type body struct{ output bool }

func (p *parser) script() []*flow.Stmt {
	p.skip(true)
	var out []*flow.Stmt
	if p.attributesThenParam() {
		for _, pr := range p.paramBlock() {
			if pr.Default != nil {
				out = append(out, &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{{Op: flow.Name, S: pr.Name, Line: pr.Default.Line}}, Val: pr.Default, Line: pr.Default.Line})
			}
		}
	}
	return append(out, p.statements(0, body{})...)
}

// statements reads statements up to the closer (0: the end of the text).
func (p *parser) statements(closer byte, b body) []*flow.Stmt {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	var out []*flow.Stmt
	for {
		p.skip(true)
		for !p.eof() && (p.src[p.i] == ';' || p.has("&&") || p.has("||")) {
			if p.src[p.i] == ';' {
				p.i++
			} else {
				p.i += 2
			}
			p.skip(true)
		}
		if p.eof() {
			return out
		}
		c := p.src[p.i]
		if closer != 0 && c == closer {
			return out
		}
		if c == ')' || c == '}' || c == '|' {
			if closer != 0 {
				return out // the closer of an enclosing construct
			}
			p.note(p.line(p.i), "a PowerShell '"+string(c)+"' that closes nothing")
			p.i++
			continue
		}
		start := p.i
		mark := len(p.hoist)
		ss := p.statement(b)
		out = append(out, p.hoist[mark:]...)
		p.hoist = p.hoist[:mark]
		out = append(out, ss...)
		if p.i == start {
			p.note(p.line(p.i), "PowerShell the reader could not place")
			p.i++
		}
	}
}

// block reads "{ statements }"; nil when there is no brace.
func (p *parser) block(b body) []*flow.Stmt {
	p.skip(true)
	if p.eof() || p.src[p.i] != '{' {
		return nil
	}
	p.i++
	ss := p.statements('}', b)
	if !p.eof() && p.src[p.i] == '}' {
		p.i++
	}
	return ss
}

// cond reads "( pipeline )".
func (p *parser) cond() *flow.Expr {
	p.skip(true)
	ln, col := p.at()
	if p.eof() || p.src[p.i] != '(' {
		return other(ln, col)
	}
	p.i++
	p.skip(true)
	x := p.pipeline()
	p.skip(true)
	if !p.eof() && p.src[p.i] == ')' {
		p.i++
	}
	return x
}

func (p *parser) statement(b body) []*flow.Stmt {
	ln, col := p.at()
	kw := p.keyword()
	next := func() { p.i += len(kw); p.skip(false) }
	switch kw {
	case "function", "filter", "workflow":
		next()
		return []*flow.Stmt{p.function(ln, col)}
	case "if":
		next()
		return []*flow.Stmt{p.ifStmt(b, ln, col)}
	case "foreach":
		save := p.i
		next()
		if !p.eof() && p.src[p.i] == '(' {
			return []*flow.Stmt{p.foreach(b, ln, col)}
		}
		p.i = save // ForEach-Object's alias in a pipeline
	case "for":
		next()
		return p.forStmt(b, ln, col)
	case "while":
		next()
		c := p.cond()
		return []*flow.Stmt{{Op: flow.While, Val: c, Body: p.block(b), Line: ln, Col: col}}
	case "do":
		next()
		body := p.block(b)
		p.skip(true)
		if k := p.keyword(); k == "while" || k == "until" {
			p.i += len(k)
			return []*flow.Stmt{{Op: flow.While, Val: p.cond(), Body: body, Line: ln, Col: col}}
		}
		return []*flow.Stmt{{Op: flow.While, Body: body, Line: ln, Col: col}}
	case "switch":
		next()
		return []*flow.Stmt{p.switchStmt(b, ln, col)}
	case "try", "finally", "begin", "process", "end", "dynamicparam", "data", "clean":
		save := p.i
		next()
		if !p.eof() && p.src[p.i] == '{' {
			return []*flow.Stmt{{Op: flow.Block, Body: p.block(b), Line: ln, Col: col}}
		}
		p.i = save
	case "catch", "trap":
		next()
		for !p.eof() && p.src[p.i] == '[' { // catch [T1], [T2]
			p.typeName()
			p.skip(true)
			if !p.eof() && p.src[p.i] == ',' {
				p.i++
				p.skip(true)
			}
		}
		body := append([]*flow.Stmt{{Op: flow.Assign, Dst: []*flow.Expr{{Op: flow.Name, S: "$_", Line: ln}}, Val: other(ln, col), Line: ln, Col: col}}, p.block(b)...)
		return []*flow.Stmt{{Op: flow.Block, Body: body, Line: ln, Col: col}}
	case "return":
		next()
		st := &flow.Stmt{Op: flow.Return, Line: ln, Col: col}
		if !p.ends() {
			st.Val = p.pipeline()
		}
		return []*flow.Stmt{st}
	case "throw", "exit":
		next()
		if !p.ends() {
			return []*flow.Stmt{{Op: flow.Eval, Val: p.pipeline(), Line: ln, Col: col}}
		}
		return nil
	case "break", "continue":
		next()
		if !p.ends() {
			p.bareWord()
		}
		return nil
	case "param":
		p.paramBlock() // a param block where none is expected
		return nil
	case "using", "#requires":
		for !p.eof() && p.src[p.i] != '\n' {
			p.i++
		}
		return nil
	case "class", "enum", "configuration":
		next()
		name, _, _ := strings.Cut(p.bareText(), ":")
		p.skip(true)
		if kw == "class" {
			return p.class(strings.ToLower(name), ln, col)
		}
		p.block(body{}) // an enum's names, a DSC configuration's resources: no code that runs here
		return nil
	}
	return p.pipelineStmt(b)
}

// function reads "name [(params)] { body }".
func (p *parser) function(ln, col int32) *flow.Stmt {
	name := p.bareText()
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:] // function global:Name
	}
	f := &flow.Func{Name: strings.ToLower(name), Line: ln}
	p.skip(true)
	var params []flow.Param
	if !p.eof() && p.src[p.i] == '(' {
		params = p.params(')')
	}
	f.Params, f.Body = p.scriptBody(params)
	return &flow.Stmt{Op: flow.Def, Fn: f, Line: ln, Col: col}
}

// scriptBody reads "{ [param(...)] statements }": a function's or a
// script block's parameters and body. Every body also binds $_ (pipeline
// input), $input and $args.
func (p *parser) scriptBody(params []flow.Param) ([]flow.Param, []*flow.Stmt) {
	p.skip(true)
	if p.eof() || p.src[p.i] != '{' {
		return withAutomatic(params), nil
	}
	p.i++
	p.skip(true)
	if p.attributesThenParam() {
		params = append(params, p.paramBlock()...)
	}
	ss := p.statements('}', body{output: true})
	if !p.eof() && p.src[p.i] == '}' {
		p.i++
	}
	return withAutomatic(params), ss
}

func withAutomatic(ps []flow.Param) []flow.Param {
	return append(ps, flow.Param{Name: "$_"}, flow.Param{Name: "$input"}, flow.Param{Name: "$args"})
}

// attributesThenParam passes the attributes before a param block
// ([CmdletBinding()]) and reports whether one follows; the cursor stays
// where it was when none does.
func (p *parser) attributesThenParam() bool {
	save := p.i
	for p.keyword() != "param" {
		if p.eof() || p.src[p.i] != '[' {
			p.i = save
			return false
		}
		p.typeName()
		p.skip(true)
	}
	return true
}

// paramBlock reads "param( ... )".
func (p *parser) paramBlock() []flow.Param {
	p.i += len("param")
	p.skip(true)
	if p.eof() || p.src[p.i] != '(' {
		return nil
	}
	return p.params(')')
}

// params reads a parameter list from "(" to its closer: attributes and
// types are skipped, defaults kept.
func (p *parser) params(closer byte) []flow.Param {
	p.i++ // (
	var out []flow.Param
	for {
		p.skip(true)
		if p.eof() {
			return out
		}
		c := p.src[p.i]
		switch {
		case c == closer:
			p.i++
			return out
		case c == ',':
			p.i++
		case c == '[':
			p.typeName() // [Parameter(Mandatory)] [string]
		case c == '$':
			ln, _ := p.at()
			v := p.variable()
			pr := flow.Param{Name: "$?"}
			if v.Op == flow.Name {
				pr.Name = v.S
			}
			p.skip(true)
			if !p.eof() && p.src[p.i] == '=' {
				p.i++
				p.skip(true)
				saved := p.noComma
				p.noComma = true
				pr.Default = p.expression()
				p.noComma = saved
				if pr.Default.Line == 0 {
					pr.Default.Line = ln
				}
			}
			out = append(out, pr)
		default:
			start := p.i
			p.expression()
			if p.i == start {
				p.i++
			}
		}
	}
}

func (p *parser) ifStmt(b body, ln, col int32) *flow.Stmt {
	c := p.cond()
	body := p.block(b)
	save := p.i
	p.skip(true)
	switch p.keyword() {
	case "elseif":
		el, ec := p.at()
		p.i += len("elseif")
		body = append(body, p.ifStmt(b, el, ec))
	case "else":
		p.i += len("else")
		body = append(body, p.block(b)...)
	default:
		p.i = save
	}
	return &flow.Stmt{Op: flow.Block, Val: c, Body: body, Line: ln, Col: col}
}

func (p *parser) foreach(b body, ln, col int32) *flow.Stmt {
	p.i++ // (
	p.skip(true)
	v := p.variable()
	p.skip(true)
	if p.keyword() == "in" {
		p.i += 2
	}
	p.skip(true)
	it := p.pipeline()
	p.skip(true)
	if !p.eof() && p.src[p.i] == ')' {
		p.i++
	}
	return &flow.Stmt{Op: flow.For, Dst: []*flow.Expr{v}, Val: it, Body: p.block(b), Line: ln, Col: col}
}

func (p *parser) forStmt(b body, ln, col int32) []*flow.Stmt {
	p.skip(true)
	if p.eof() || p.src[p.i] != '(' {
		return nil
	}
	p.i++
	var parts [3][]*flow.Stmt
	for k := 0; k < 3; k++ {
		p.skip(true)
		if !p.eof() && p.src[p.i] != ';' && p.src[p.i] != ')' {
			parts[k] = p.pipelineStmt(body{})
		}
		p.skip(true)
		if !p.eof() && p.src[p.i] == ';' {
			p.i++
		}
	}
	if !p.eof() && p.src[p.i] == ')' {
		p.i++
	}
	w := &flow.Stmt{Op: flow.While, Body: append(p.block(b), parts[2]...), Line: ln, Col: col}
	if len(parts[1]) > 0 {
		w.Val = parts[1][0].Val
	}
	return append(parts[0], w)
}

// switchStmt reads "switch [-opts] (value) { pattern { body } ... }":
// every body may run, with $_ the value.
func (p *parser) switchStmt(b body, ln, col int32) *flow.Stmt {
	for !p.eof() && p.src[p.i] == '-' {
		p.i++
		opt := p.keyword()
		p.i += len(opt)
		p.skip(false)
		if opt == "file" {
			p.argValue() // switch -file path reads the file; its lines are not followed
		}
	}
	v := p.cond()
	st := &flow.Stmt{Op: flow.Block, Val: v, Line: ln, Col: col}
	st.Body = append(st.Body, &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{{Op: flow.Name, S: "$_", Line: ln}}, Val: v, Line: ln, Col: col})
	p.skip(true)
	if p.eof() || p.src[p.i] != '{' {
		return st
	}
	p.i++
	for {
		p.skip(true)
		for !p.eof() && p.src[p.i] == ';' {
			p.i++
			p.skip(true)
		}
		if p.eof() {
			return st
		}
		if p.src[p.i] == '}' {
			p.i++
			return st
		}
		start := p.i
		cl, cc := p.at()
		var pat *flow.Expr
		if p.keyword() == "default" {
			p.i += len("default")
		} else if p.src[p.i] == '{' {
			pat = p.scriptBlockCall(nil, cl, cc)
		} else {
			pat = p.argPrimary()
		}
		p.skip(true)
		body := p.block(b)
		st.Body = append(st.Body, &flow.Stmt{Op: flow.Block, Val: pat, Body: body, Line: cl, Col: cc})
		if p.i == start {
			p.i++
		}
	}
}

// class reads a PowerShell class: its methods are functions of a class
// whose first parameter is $this.
func (p *parser) class(name string, ln, col int32) []*flow.Stmt {
	if !p.eof() && p.src[p.i] == ':' { // class A : B
		p.i++
		p.skip(true)
		p.bareText()
		p.skip(true)
	}
	if p.eof() || p.src[p.i] != '{' {
		return nil
	}
	p.i++
	cl := &flow.Func{Name: name, Line: ln}
	for {
		p.skip(true)
		if p.eof() {
			break
		}
		if p.src[p.i] == '}' {
			p.i++
			break
		}
		start := p.i
		ml, mc := p.at()
		for !p.eof() && p.src[p.i] == '[' {
			p.typeName()
			p.skip(false)
		}
		if k := p.keyword(); k == "static" || k == "hidden" {
			p.i += len(k)
			p.skip(false)
		}
		for !p.eof() && p.src[p.i] == '[' {
			p.typeName()
			p.skip(false)
		}
		if !p.eof() && p.src[p.i] == '$' { // a property, read as $this.name
			v := p.variable()
			p.skip(false)
			if !p.eof() && p.src[p.i] == '=' && v.Op == flow.Name {
				p.i++
				p.skip(false)
				dst := &flow.Expr{Op: flow.Name, S: strings.TrimPrefix(v.S, "$"), Line: ml, Col: mc}
				cl.Body = append(cl.Body, &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{dst}, Val: p.expression(), Line: ml, Col: mc})
			}
		} else if m := p.bareText(); m != "" {
			p.skip(false)
			var params []flow.Param
			if !p.eof() && p.src[p.i] == '(' {
				params = p.params(')')
			}
			fn := &flow.Func{Name: strings.ToLower(m), Line: ml, Class: name}
			fn.Params, fn.Body = p.scriptBody(append([]flow.Param{{Name: "$this"}}, params...))
			cl.Body = append(cl.Body, &flow.Stmt{Op: flow.Def, Fn: fn, Line: ml, Col: mc})
		}
		if p.i == start {
			p.i++
		}
	}
	return []*flow.Stmt{{Op: flow.Class, Fn: cl, Line: ln, Col: col}}
}

var assignOps = []string{"=", "+=", "-=", "*=", "/=", "%=", "??="}

// pipelineStmt reads an assignment or a pipeline.
func (p *parser) pipelineStmt(b body) []*flow.Stmt {
	ln, col := p.at()
	if c := p.src[p.i]; c == '$' || c == '[' {
		save := p.i
		dst := p.assignTarget()
		p.skip(false)
		for _, op := range assignOps {
			if !p.has(op) || op == "=" && p.peek(1) == '=' {
				continue
			}
			p.i += len(op)
			p.skip(true)
			if op == "=" && dst.Op == flow.Name && !p.eof() && p.src[p.i] == '{' {
				// $f = { ... }: a named script block, followed even if
				// nothing invokes it
				fl := p.line(p.i)
				fn := &flow.Func{Name: dst.S, Line: fl}
				fn.Params, fn.Body = p.scriptBody(nil)
				if p.ends() {
					return []*flow.Stmt{{Op: flow.Def, Fn: fn, Line: ln, Col: col}}
				}
				// the block was the start of an expression: { } + …
				rest := p.pipelineRest(&flow.Expr{Op: flow.Lambda, Fn: fn, Line: fl})
				return []*flow.Stmt{{Op: flow.Assign, Dst: []*flow.Expr{dst}, Val: rest, Line: ln, Col: col}}
			}
			val := p.assignValue()
			if op == "=" {
				return []*flow.Stmt{{Op: flow.Assign, Dst: []*flow.Expr{dst}, Val: val, Line: ln, Col: col}}
			}
			return []*flow.Stmt{{Op: flow.Aug, Dst: []*flow.Expr{dst}, Val: val, Line: ln, Col: col}}
		}
		p.i = save
	}
	x := p.pipeline()
	if b.output {
		return []*flow.Stmt{{Op: flow.Return, Val: x, Line: ln, Col: col}}
	}
	return []*flow.Stmt{{Op: flow.Eval, Val: x, Line: ln, Col: col}}
}

// assignTarget reads "$a", "$a.b", "$a[k]", "[T]$a" or "$a, $b".
func (p *parser) assignTarget() *flow.Expr {
	ln, col := p.at()
	var ts []*flow.Expr
	for {
		for !p.eof() && p.src[p.i] == '[' {
			p.typeName()
			p.skip(false)
		}
		if p.eof() || p.src[p.i] != '$' {
			break
		}
		ts = append(ts, p.postfix(p.variable(), true))
		p.skip(false)
		if p.eof() || p.src[p.i] != ',' {
			break
		}
		p.i++
		p.skip(true)
	}
	switch len(ts) {
	case 0:
		return other(ln, col)
	case 1:
		return ts[0]
	}
	return &flow.Expr{Op: flow.List, Args: ts, Line: ln, Col: col}
}

// assignValue is what an assignment's right side holds: a pipeline, or
// the output of a statement (if, switch, foreach, try) written there.
func (p *parser) assignValue() *flow.Expr {
	ln, col := p.at()
	switch p.keyword() {
	case "if", "switch", "foreach", "for", "while", "do", "try":
		ss := p.statement(body{output: true})
		fn := &flow.Func{Name: "<statement>", Line: ln, Body: ss}
		return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Lambda, Fn: fn, Line: ln, Col: col}, Line: ln, Col: col}
	}
	return p.pipeline()
}

// --- pipelines and commands

// pipeline reads "element (| element)*": each command receives the
// previous element's output as its input.
func (p *parser) pipeline() *flow.Expr {
	if !p.enter() {
		return &flow.Expr{Op: flow.Other}
	}
	defer p.leave()
	p.skip(false)
	return p.pipelineRest(p.element(nil))
}

func (p *parser) pipelineRest(cur *flow.Expr) *flow.Expr {
	for {
		p.skip(false)
		if !p.eof() && p.src[p.i] == '\n' {
			// a pipeline may go on with "|" at the start of the next line
			j := p.i
			for j < len(p.src) && (p.src[j] == '\n' || p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\r') {
				j++
			}
			if j < len(p.src) && p.src[j] == '|' && (j+1 >= len(p.src) || p.src[j+1] != '|') {
				p.i = j
			}
		}
		if p.eof() || p.src[p.i] != '|' || p.peek(1) == '|' {
			return cur
		}
		p.i++
		p.skip(true)
		if p.ends() {
			return cur
		}
		start := p.i
		cur = p.element(cur)
		if p.i == start {
			return cur
		}
	}
}

// commandStart reports whether the element at the cursor is a command
// (a bare name, a path, or the & and . invocation operators).
func (p *parser) commandStart() bool {
	c := p.src[p.i]
	switch {
	case c == '&' && p.peek(1) != '&':
		return true
	case c == '.':
		n := p.peek(1)
		return n == ' ' || n == '\t' || n == '\\' || n == '/' || n == '.' && (p.peek(2) == '\\' || p.peek(2) == '/') || isLetter(n)
	case c == '%' || c == '?':
		n := p.peek(1)
		return n == ' ' || n == '\t' || n == '{'
	case isLetter(c), c == '\\', c == '/', c == '~':
		return true
	case c >= '0' && c <= '9':
		// a program name that starts with a digit (7z.exe)
		j := p.i
		for j < len(p.src) && isWord(p.src[j]) {
			j++
		}
		return j > p.i && j < len(p.src) && (p.src[j] == '.' && j+1 < len(p.src) && isLetter(p.src[j+1])) && !isNumber(p.src[p.i:j])
	}
	return false
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func (p *parser) element(prev *flow.Expr) *flow.Expr {
	if p.eof() {
		return orOther(prev)
	}
	if p.commandStart() {
		return p.command(prev)
	}
	ln, col := p.at()
	x := p.expression()
	if prev != nil {
		x = other(ln, col, prev, x)
	}
	return p.redirections(x)
}

func orOther(x *flow.Expr) *flow.Expr {
	if x == nil {
		return &flow.Expr{Op: flow.Other}
	}
	return x
}

// command reads a command and its arguments.
func (p *parser) command(prev *flow.Expr) *flow.Expr {
	ln, col := p.at()
	var callee *flow.Expr
	name := ""
	if c := p.src[p.i]; c == '&' || c == '.' && (p.peek(1) == ' ' || p.peek(1) == '\t') {
		p.i++
		p.skip(false)
		if p.ends() {
			return orOther(prev)
		}
		callee = p.argPrimary()
		if callee.Op == flow.Str {
			name = strings.ToLower(callee.S)
			callee = str(name, ln, col)
		}
	} else {
		w := p.bareWord()
		if w.Op == flow.Str {
			name = strings.ToLower(w.S)
			callee = str(name, ln, col)
		} else {
			callee = w // a name built from variables: "$dir\tool.exe"
		}
	}
	var args, splats []*flow.Expr
	var redirects [][2]*flow.Expr
	for {
		p.skip(false)
		if p.ends() {
			break
		}
		start := p.i
		c := p.src[p.i]
		switch {
		case c == '>' || (c == '1' || c == '2' || c == '3' || c == '4' || c == '5' || c == '6' || c == '*') && p.peek(1) == '>':
			redirects = append(redirects, p.redirect())
		case c == '-' && p.peek(1) == '-' && p.peek(2) == '%':
			// --%: the rest of the line is passed as it is
			p.i += 3
			end := strings.IndexByte(p.src[p.i:], '\n')
			if end < 0 {
				end = len(p.src) - p.i
			}
			al, ac := p.at()
			for _, f := range strings.Fields(p.src[p.i : p.i+end]) {
				args = append(args, str(f, al, ac))
			}
			p.i += end
		case c == '-' && isLetter(p.peek(1)):
			args = append(args, p.parameter()...)
		case c == '@' && isLetter(p.peek(1)):
			// @params: a hashtable's entries as named parameters
			p.i++
			v := p.variableNamed()
			splats = append(splats, v)
		default:
			args = append(args, p.argValue())
		}
		if p.i == start {
			p.i++
		}
	}
	x := p.shape(name, callee, args, prev, ln, col)
	if x.Op == flow.Call {
		for _, v := range splats {
			x.Args = append(x.Args, v)
			x.Keys = append(x.Keys, "**")
		}
	}
	for _, r := range redirects {
		if r[0] != nil {
			x = &flow.Expr{Op: flow.Call, X: str("<write>", ln, col), Args: []*flow.Expr{r[0], x}, Keys: []string{"", ""}, Line: ln, Col: col}
		}
	}
	return x
}

// parameter reads "-Name" or "-Name:value" as lower-cased flag words.
func (p *parser) parameter() []*flow.Expr {
	ln, col := p.at()
	j := p.i + 1
	for j < len(p.src) && (isWord(p.src[j]) || p.src[j] == '-') {
		j++
	}
	flag := str(strings.ToLower(p.src[p.i:j]), ln, col)
	p.i = j
	if p.eof() || p.src[p.i] != ':' {
		return []*flow.Expr{flag}
	}
	p.i++
	v := p.argValue()
	if v.Op == flow.Num && (v.S == "true" || v.S == "false") {
		if v.S == "false" {
			return nil // -Switch:$false is the switch off
		}
		return []*flow.Expr{flag}
	}
	return []*flow.Expr{flag, v}
}

// redirect reads "> file", ">> file", "2>&1", "*> $null"; a file target
// is written with the command's output.
func (p *parser) redirect() [2]*flow.Expr {
	for !p.eof() && (p.src[p.i] == '>' || p.src[p.i] >= '1' && p.src[p.i] <= '6' || p.src[p.i] == '*') {
		p.i++
	}
	if !p.eof() && p.src[p.i] == '&' {
		p.i++
		if !p.eof() && p.src[p.i] >= '1' && p.src[p.i] <= '6' {
			p.i++
		}
		return [2]*flow.Expr{}
	}
	p.skip(false)
	if p.ends() {
		return [2]*flow.Expr{}
	}
	t := p.argPrimary()
	if t.Op == flow.Num && t.S == "null" {
		return [2]*flow.Expr{}
	}
	return [2]*flow.Expr{t}
}

// redirections reads the redirections after an expression statement.
func (p *parser) redirections(x *flow.Expr) *flow.Expr {
	for {
		p.skip(false)
		if p.eof() {
			return x
		}
		c := p.src[p.i]
		if !(c == '>' || (c >= '1' && c <= '6' || c == '*') && p.peek(1) == '>') {
			return x
		}
		if r := p.redirect(); r[0] != nil {
			x = &flow.Expr{Op: flow.Call, X: str("<write>", x.Line, x.Col), Args: []*flow.Expr{r[0], x}, Keys: []string{"", ""}, Line: x.Line, Col: x.Col}
		}
	}
}

// shape builds a command's call. A few commands are part of the language
// more than of its library, and are lowered by what they do:
// ForEach-Object runs its block for each input, Where-Object passes its
// input on, New-Object constructs its type as [T]::new does. A script
// block passed to any other command runs where it stands.
func (p *parser) shape(name string, callee *flow.Expr, args []*flow.Expr, prev *flow.Expr, ln, col int32) *flow.Expr {
	switch name {
	case "foreach-object", "%", "foreach":
		for _, a := range args {
			if a.Op == flow.Lambda {
				var in *flow.Expr
				if prev != nil {
					in = &flow.Expr{Op: flow.Elem, X: prev, Line: ln, Col: col}
				}
				return p.invoke(a, in, ln, col)
			}
		}
	case "where-object", "?", "where":
		out := []*flow.Expr{orOther(prev)}
		for _, a := range args {
			if a.Op == flow.Lambda {
				var in *flow.Expr
				if prev != nil {
					in = &flow.Expr{Op: flow.Elem, X: prev, Line: ln, Col: col}
				}
				out = append(out, p.invoke(a, in, ln, col))
			}
		}
		return other(ln, col, out...)
	case "new-object":
		if x := newObject(args, ln, col); x != nil {
			return x
		}
	}
	x := &flow.Expr{Op: flow.Call, X: callee, Line: ln, Col: col}
	for _, a := range args {
		if a.Op == flow.Lambda {
			a = p.invoke(a, nil, ln, col)
		}
		x.Args = append(x.Args, a)
		x.Keys = append(x.Keys, "")
	}
	if prev != nil {
		x.Args = append(x.Args, prev)
		x.Keys = append(x.Keys, Stdin)
	}
	return x
}

// invoke calls a script block in place, with $_ bound to in.
func (p *parser) invoke(block, in *flow.Expr, ln, col int32) *flow.Expr {
	c := &flow.Expr{Op: flow.Call, X: block, Line: ln, Col: col}
	if in != nil {
		c.Args, c.Keys = []*flow.Expr{in, in}, []string{"$_", "$input"}
	}
	return c
}

func (p *parser) scriptBlockCall(in *flow.Expr, ln, col int32) *flow.Expr {
	return p.invoke(p.scriptBlock(), in, ln, col)
}

// newObject lowers "New-Object [-TypeName] T [-ArgumentList] a, b" (and
// -ComObject) as a call of the type.
func newObject(args []*flow.Expr, ln, col int32) *flow.Expr {
	var typ string
	var ctor []*flow.Expr
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Op == flow.Str && strings.HasPrefix(a.S, "-") {
			switch {
			case strings.HasPrefix("-typename", a.S) || strings.HasPrefix("-comobject", a.S) && len(a.S) > 2:
				if i+1 < len(args) && args[i+1].Op == flow.Str {
					typ = args[i+1].S
				}
				i++
			case strings.HasPrefix("-argumentlist", a.S) && len(a.S) > 1:
				if i+1 < len(args) {
					ctor = append(ctor, spread(args[i+1])...)
				}
				i++
			case strings.HasPrefix("-property", a.S):
				i++
			}
			continue
		}
		if typ == "" && a.Op == flow.Str {
			typ = a.S
			if k := strings.IndexByte(typ, '('); k > 0 { // New-Object T(a)
				typ = typ[:k]
			}
			continue
		}
		ctor = append(ctor, spread(a)...)
	}
	if typ == "" {
		return nil
	}
	x := &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Name, S: TypeName(typ), Line: ln, Col: col}, Line: ln, Col: col}
	for _, a := range ctor {
		x.Args = append(x.Args, a)
		x.Keys = append(x.Keys, "")
	}
	return x
}

func spread(x *flow.Expr) []*flow.Expr {
	if x.Op == flow.List {
		return x.Args
	}
	return []*flow.Expr{x}
}

// TypeName is a .NET type's name as the vocabulary writes it: lower case,
// without "System." (which PowerShell lets a script leave out).
func TypeName(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	t = strings.TrimPrefix(t, "[")
	t = strings.TrimSuffix(t, "]")
	t = strings.TrimPrefix(t, "system.")
	return t
}
