// Package shell lowers shell programs (parsed by mvdan.cc/sh) into the flow
// engine's program form: a simple command is a call of its program with
// its words, a pipeline feeds each command's output to the next one's
// standard input, redirections read and write files, substitutions are
// values, assignments bind variables, and functions are functions. What a
// program does (curl sends, bash runs its input) comes from the
// vocabulary's shell section. A program that does not parse is lowered
// line by line, so breaking the syntax hides nothing.
package shell

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/vocab"
)

// Limits on untrusted input.
const (
	MaxBytes = 1 << 20
	MaxDepth = 64 // nesting of commands and words
)

// Version is the producer's version.
const Version = "1.2.0"

// Stdin is the keyword under which a command receives its standard input.
const Stdin = "<stdin>"

// Lower parses src as a shell program; lines are offset by lineBase.
func Lower(path, src string, lineBase int32) *flow.Unit {
	u := &flow.Unit{Path: path, Lang: "shell", Top: &flow.Func{}}
	if len(src) > MaxBytes {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "shell program past the first 1 MiB not analysed"})
		src = src[:MaxBytes]
	}
	l := &lowerer{u: u, base: lineBase}
	if f, err := parse(src); err == nil {
		u.Top.Body = l.stmts(f.Stmts, 0)
		return u
	}
	// Line by line: each line that parses on its own is lowered; a line
	// that does not is kept as words, so a broken program still shows its
	// commands.
	for i, ln := range strings.Split(src, "\n") {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		l.base = lineBase + int32(i)
		if f, err := parse(ln); err == nil {
			u.Top.Body = append(u.Top.Body, l.stmts(f.Stmts, 0)...)
			continue
		}
		if f, err := parse(sanitize(ln)); err == nil {
			u.Top.Body = append(u.Top.Body, l.stmts(f.Stmts, 0)...)
			continue
		}
		u.Unresolved = append(u.Unresolved, flow.Note{Line: l.base + 1, What: "a shell line that does not parse"})
	}
	return u
}

func parse(src string) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("shell parser failed: %v", r)
		}
	}()
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// sanitize drops what most often breaks a single line: an unbalanced
// quote or bracket at the end, a line continuation, a prompt.
func sanitize(ln string) string {
	ln = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ln), `\`))
	ln = strings.TrimPrefix(ln, "$ ")
	for _, q := range []string{`"`, `'`, "`"} {
		if strings.Count(ln, q)%2 == 1 {
			ln = strings.ReplaceAll(ln, q, "")
		}
	}
	return ln
}

type lowerer struct {
	u    *flow.Unit
	base int32
}

func (l *lowerer) line(p syntax.Pos) (int32, int32) {
	return l.base + int32(p.Line()), int32(p.Col())
}

func name(s string) *flow.Expr { return &flow.Expr{Op: flow.Name, S: s} }

// prog names a command the producer adds (a redirection, a connection);
// it is a word, as a program name is.
func prog(s string) *flow.Expr { return &flow.Expr{Op: flow.Str, S: s} }

func (l *lowerer) stmts(ss []*syntax.Stmt, depth int) []*flow.Stmt {
	var out []*flow.Stmt
	for _, s := range ss {
		out = append(out, l.stmt(s, depth)...)
	}
	return out
}

func (l *lowerer) stmt(s *syntax.Stmt, depth int) []*flow.Stmt {
	if s == nil || depth > MaxDepth {
		return nil
	}
	ln, col := l.line(s.Pos())
	// assignments, functions and compound commands
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			var out []*flow.Stmt
			for _, a := range c.Assigns {
				if a.Name == nil {
					continue
				}
				out = append(out, l.assign(a, depth, ln, col)...)
			}
			return out
		}
	case *syntax.FuncDecl:
		names := c.Names
		if c.Name != nil {
			names = []*syntax.Lit{c.Name}
		}
		if len(names) == 0 {
			// An anonymous function ("() cmd", which the bash parser
			// accepts too) runs where it is declared.
			return l.stmt(c.Body, depth+1)
		}
		var out []*flow.Stmt
		for _, n := range names {
			f := &flow.Func{Name: n.Value, Line: ln, Params: []flow.Param{{Name: "@", Rest: true}}}
			f.Body = l.stmt(c.Body, depth+1)
			out = append(out, &flow.Stmt{Op: flow.Def, Fn: f, Line: ln, Col: col})
			if forkBomb(n.Value, c.Body) {
				out = append(out, &flow.Stmt{Op: flow.Eval, Val: &flow.Expr{Op: flow.Call, X: prog("<fork-bomb>"), Line: ln, Col: col}, Line: ln, Col: col})
			}
		}
		return out
	case *syntax.Block:
		return l.stmts(c.Stmts, depth+1)
	case *syntax.Subshell:
		return l.stmts(c.Stmts, depth+1)
	case *syntax.IfClause:
		var body []*flow.Stmt
		for ic := c; ic != nil; ic = ic.Else {
			body = append(body, l.stmts(ic.Cond, depth+1)...)
			body = append(body, l.stmts(ic.Then, depth+1)...)
		}
		return []*flow.Stmt{{Op: flow.Block, Body: body, Line: ln, Col: col}}
	case *syntax.WhileClause:
		body := append(l.stmts(c.Cond, depth+1), l.stmts(c.Do, depth+1)...)
		return []*flow.Stmt{{Op: flow.While, Body: body, Line: ln, Col: col}}
	case *syntax.ForClause:
		fs := &flow.Stmt{Op: flow.For, Body: l.stmts(c.Do, depth+1), Line: ln, Col: col}
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			fs.Dst = []*flow.Expr{name(wi.Name.Value)}
			lst := &flow.Expr{Op: flow.List}
			for _, w := range wi.Items {
				lst.Args = append(lst.Args, l.words([]*syntax.Word{w}, depth)...)
			}
			fs.Val = lst
		} else {
			fs.Op = flow.While
		}
		return []*flow.Stmt{fs}
	case *syntax.CaseClause:
		var body []*flow.Stmt
		for _, it := range c.Items {
			body = append(body, l.stmts(it.Stmts, depth+1)...)
		}
		return []*flow.Stmt{{Op: flow.Block, Val: l.word(c.Word, depth), Body: body, Line: ln, Col: col}}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			x := l.pipeline(c, depth)
			out := []*flow.Stmt{{Op: flow.Eval, Val: l.redirected(s, x, depth), Line: ln, Col: col}}
			if shellToNet(c) {
				// cat f | sh -i | nc host port > f: the shell's output goes
				// out and what comes back is fed to it through the pipe
				out = append(out, &flow.Stmt{Op: flow.Eval, Val: &flow.Expr{Op: flow.Call, X: prog("<remote-shell>"), Line: ln, Col: col}, Line: ln, Col: col})
			}
			return out
		}
		return append(l.stmt(c.X, depth+1), l.stmt(c.Y, depth+1)...)
	case *syntax.DeclClause:
		var out []*flow.Stmt
		for _, a := range c.Args {
			if a.Name == nil {
				continue
			}
			if c.Variant.Value == "export" && a.Value == nil && a.Array == nil && !a.Naked {
				continue
			}
			if a.Naked {
				continue
			}
			out = append(out, l.assign(a, depth, ln, col)...)
		}
		return out
	case *syntax.TimeClause:
		return l.stmt(c.Stmt, depth+1)
	case *syntax.CoprocClause:
		return l.stmt(c.Stmt, depth+1)
	}
	x := l.command(s, depth)
	if x == nil {
		return nil
	}
	if s.Background && l.callName(s) != "" {
		x = &flow.Expr{Op: flow.Call, X: prog("<background>"), Args: []*flow.Expr{x}, Keys: []string{""}, Line: ln, Col: col}
	}
	return []*flow.Stmt{{Op: flow.Eval, Val: x, Line: ln, Col: col}}
}

func (l *lowerer) callName(s *syntax.Stmt) string {
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		return c.Args[0].Lit()
	}
	return ""
}

// assign binds a variable. Setting one the shell itself reads
// (HISTFILE=/dev/null) is also a command of the pseudo-program <assign>,
// so the vocabulary can say what the setting does.
func (l *lowerer) assign(a *syntax.Assign, depth int, ln, col int32) []*flow.Stmt {
	v := l.assignValue(a, depth)
	out := []*flow.Stmt{{Op: flow.Assign, Dst: []*flow.Expr{name(a.Name.Value)}, Val: v, Line: ln, Col: col}}
	if shellVars()[a.Name.Value] {
		call := &flow.Expr{Op: flow.Call, X: prog("<assign>"), Args: []*flow.Expr{{Op: flow.Str, S: a.Name.Value}, v}, Line: ln, Col: col}
		out = append(out, &flow.Stmt{Op: flow.Eval, Val: call, Line: ln, Col: col})
	}
	return out
}

// shellVars are the variables the vocabulary's <assign> entries name.
var shellVars = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, e := range vocab.Entries("calls-shell") {
		if e.Pattern == "<assign>" {
			for _, n := range strings.Split(e.Opt("names"), ",") {
				out[n] = true
			}
		}
	}
	return out
})

func (l *lowerer) assignValue(a *syntax.Assign, depth int) *flow.Expr {
	if a.Array != nil {
		lst := &flow.Expr{Op: flow.List}
		if a.Append && a.Name != nil {
			// ARGS+=(…) keeps what ARGS held
			lst.Args = append(lst.Args, name(a.Name.Value))
			lst.Keys = append(lst.Keys, "*")
		}
		for _, el := range a.Array.Elems {
			if el.Value != nil {
				lst.Args = append(lst.Args, l.word(el.Value, depth))
				lst.Keys = append(lst.Keys, "")
			}
		}
		return lst
	}
	if a.Value == nil {
		return &flow.Expr{Op: flow.Str, S: ""}
	}
	v := l.word(a.Value, depth)
	if a.Append && a.Name != nil {
		return &flow.Expr{Op: flow.Fmt, Args: []*flow.Expr{name(a.Name.Value), v}, Line: v.Line, Col: v.Col}
	}
	return v
}

// command lowers a statement's command with its redirections.
func (l *lowerer) command(s *syntax.Stmt, depth int) *flow.Expr {
	var x *flow.Expr
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		x = l.call(c, depth)
	case nil:
		x = nil
	default:
		inner := l.stmt(&syntax.Stmt{Cmd: s.Cmd, Position: s.Position}, depth+1)
		x = &flow.Expr{Op: flow.Other}
		for _, st := range inner {
			if st.Val != nil {
				x.Args = append(x.Args, st.Val)
			}
		}
	}
	if x == nil {
		return nil
	}
	return l.redirected(s, x, depth)
}

// call lowers a simple command: its program (the first word) called with
// the remaining words; assignments before it are its environment.
func (l *lowerer) call(c *syntax.CallExpr, depth int) *flow.Expr {
	ln, col := l.line(c.Pos())
	ws := l.words(c.Args, depth)
	if len(ws) == 0 {
		return nil
	}
	x := &flow.Expr{Op: flow.Call, X: ws[0], Line: ln, Col: col}
	for _, w := range ws[1:] {
		if w.Op == flow.Elem && w.S == "@" {
			x.Args = append(x.Args, w.X)
			x.Keys = append(x.Keys, "*")
			continue
		}
		x.Args = append(x.Args, w)
		x.Keys = append(x.Keys, "")
	}
	for _, a := range c.Assigns {
		if a.Name != nil {
			x.Args = append(x.Args, l.assignValue(a, depth))
			x.Keys = append(x.Keys, "<env:"+a.Name.Value+">")
		}
	}
	return x
}

// pipeline feeds each command's output to the next's standard input.
func (l *lowerer) pipeline(b *syntax.BinaryCmd, depth int) *flow.Expr {
	var left *flow.Expr
	if lb, ok := b.X.Cmd.(*syntax.BinaryCmd); ok && (lb.Op == syntax.Pipe || lb.Op == syntax.PipeAll) {
		left = l.redirected(b.X, l.pipeline(lb, depth+1), depth)
	} else {
		left = l.command(b.X, depth+1)
	}
	right := l.command(b.Y, depth+1)
	if right == nil {
		return left
	}
	if left != nil {
		attachStdin(right, left)
	}
	return right
}

// attachStdin gives a lowered command its standard input; a wrapper
// (redirection, background) passes it to the command inside.
func attachStdin(x, in *flow.Expr) {
	if x.Op == flow.Call && x.X != nil && x.X.Op == flow.Str && (x.X.S == "<write>" || x.X.S == "<background>") && len(x.Args) > 0 {
		last := x.Args[len(x.Args)-1]
		if x.X.S == "<background>" {
			last = x.Args[0]
		}
		attachStdin(last, in)
		return
	}
	if x.Op != flow.Call {
		x.Args = append(x.Args, in)
		return
	}
	x.Args = append(x.Args, in)
	x.Keys = append(x.Keys, Stdin)
}

// redirected wraps a command with its redirections: input files and
// here-documents become its standard input, output files writes, and a
// /dev/tcp target a connection.
func (l *lowerer) redirected(s *syntax.Stmt, x *flow.Expr, depth int) *flow.Expr {
	ln, col := l.line(s.Pos())
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				attachStdin(x, l.word(r.Hdoc, depth))
			}
		case syntax.WordHdoc:
			attachStdin(x, l.word(r.Word, depth))
		case syntax.RdrIn, syntax.RdrInOut:
			target := l.word(r.Word, depth)
			if isDevNet(r.Word) {
				if interpreter(x) {
					x = &flow.Expr{Op: flow.Call, X: prog("<remote-shell>"), Args: []*flow.Expr{target, x}, Keys: []string{"", ""}, Line: ln, Col: col}
					continue
				}
				attachStdin(x, &flow.Expr{Op: flow.Call, X: prog("<dev-tcp-in>"), Args: []*flow.Expr{target}, Keys: []string{""}, Line: ln, Col: col})
				continue
			}
			attachStdin(x, &flow.Expr{Op: flow.Call, X: prog("<read>"), Args: []*flow.Expr{target}, Keys: []string{""}, Line: ln, Col: col})
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.DplOut:
			if r.Op == syntax.DplOut && !isDevNet(r.Word) {
				continue // 2>&1
			}
			if r.N != nil && r.N.Value != "1" && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) {
				continue // 2>FILE: the command's output still goes on
			}
			target := l.word(r.Word, depth)
			fn := "<write>"
			if isDevNet(r.Word) {
				fn = "<dev-tcp>"
				if interpreter(x) {
					fn = "<remote-shell>"
				}
			}
			x = &flow.Expr{Op: flow.Call, X: prog(fn), Args: []*flow.Expr{target, x}, Keys: []string{"", ""}, Line: ln, Col: col}
		}
	}
	return x
}

func isDevNet(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	s := wordText(w)
	return strings.HasPrefix(s, "/dev/tcp/") || strings.HasPrefix(s, "/dev/udp/")
}

// wordText renders a word's literal parts, parameters as $NAME.
func wordText(w *syntax.Word) string {
	var b bytes.Buffer
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					b.WriteString(lit.Value)
				} else {
					b.WriteString("$")
				}
			}
		default:
			b.WriteString("$")
		}
	}
	return b.String()
}

// forkBomb reports a function that runs itself twice over or in the
// background: ":(){ :|:& };:" in any spelling.
func forkBomb(name string, body *syntax.Stmt) bool {
	if body == nil {
		return false
	}
	self := 0
	bg := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			if x.Background {
				bg = true
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 && x.Args[0].Lit() == name {
				self++
			}
		}
		return true
	})
	return self >= 2 || self >= 1 && bg
}

// interpreters run their input or arguments as code (the vocabulary's
// exec-shell and exec-code programs); a connection bound to one is a
// remote shell.
func interpreters(name string) bool {
	r := vocab.Call("shell", name)
	return r != nil && (r.Kind == "exec-shell" || r.Kind == "exec-code")
}

func interpreter(x *flow.Expr) bool {
	for x != nil && x.Op == flow.Call && x.X != nil && x.X.Op == flow.Str && strings.HasPrefix(x.X.S, "<") && len(x.Args) > 0 {
		x = x.Args[len(x.Args)-1]
	}
	if x == nil || x.Op != flow.Call || x.X == nil || x.X.Op != flow.Str {
		return false
	}
	n := x.X.S
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return interpreters(n)
}

// stages lists a pipeline's commands in order.
func stages(b *syntax.BinaryCmd, out []*syntax.Stmt) []*syntax.Stmt {
	for _, side := range []*syntax.Stmt{b.X, b.Y} {
		if inner, ok := side.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			out = stages(inner, out)
		} else {
			out = append(out, side)
		}
	}
	return out
}

// shellToNet reports a pipeline in which an interactive interpreter's
// output is piped into a network client.
func shellToNet(b *syntax.BinaryCmd) bool {
	sh := false
	for _, st := range stages(b, nil) {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			continue
		}
		name := c.Args[0].Lit()
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if interpreters(name) {
			sh = true
			continue
		}
		if r := vocab.Call("shell", name); sh && r != nil && r.Kind == "sink" && r.Arg == "net-send" {
			return true
		}
	}
	return false
}
