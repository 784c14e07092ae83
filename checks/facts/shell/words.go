package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

// words lowers command words; an unquoted $IFS splits a word where it
// stands, as the shell would.
func (l *lowerer) words(ws []*syntax.Word, depth int) []*flow.Expr {
	var out []*flow.Expr
	for _, w := range ws {
		var cur []syntax.WordPart
		for _, p := range w.Parts {
			if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "IFS" && pe.Exp == nil {
				if len(cur) > 0 {
					out = append(out, l.parts(cur, w, depth))
				}
				cur = nil
				continue
			}
			cur = append(cur, p)
		}
		if len(cur) > 0 {
			out = append(out, l.parts(cur, w, depth))
		}
	}
	return out
}

func (l *lowerer) word(w *syntax.Word, depth int) *flow.Expr {
	if w == nil {
		return &flow.Expr{Op: flow.Str}
	}
	return l.parts(w.Parts, w, depth)
}

func (l *lowerer) parts(ps []syntax.WordPart, w *syntax.Word, depth int) *flow.Expr {
	ln, col := l.line(w.Pos())
	var xs []*flow.Expr
	for _, p := range ps {
		xs = append(xs, l.part(p, depth)...)
	}
	// adjacent literals fold into one string
	var out []*flow.Expr
	for _, x := range xs {
		if n := len(out); n > 0 && x.Op == flow.Str && out[n-1].Op == flow.Str {
			out[n-1] = &flow.Expr{Op: flow.Str, S: out[n-1].S + x.S, Line: ln, Col: col}
			continue
		}
		out = append(out, x)
	}
	switch len(out) {
	case 0:
		return &flow.Expr{Op: flow.Str, Line: ln, Col: col}
	case 1:
		if out[0].Line == 0 {
			out[0].Line, out[0].Col = ln, col
		}
		return out[0]
	}
	return &flow.Expr{Op: flow.Fmt, Args: out, Line: ln, Col: col}
}

func (l *lowerer) part(p syntax.WordPart, depth int) []*flow.Expr {
	if depth > MaxDepth {
		return nil
	}
	ln, col := l.line(p.Pos())
	switch x := p.(type) {
	case *syntax.Lit:
		return []*flow.Expr{{Op: flow.Str, S: unbackslash(x.Value), Line: ln, Col: col}}
	case *syntax.SglQuoted:
		v := x.Value
		if x.Dollar {
			v = ansiC(v)
		}
		return []*flow.Expr{{Op: flow.Str, S: v, Line: ln, Col: col}}
	case *syntax.DblQuoted:
		var out []*flow.Expr
		for _, q := range x.Parts {
			out = append(out, l.part(q, depth+1)...)
		}
		if len(out) == 0 {
			out = []*flow.Expr{{Op: flow.Str, S: "", Line: ln, Col: col}}
		}
		return out
	case *syntax.ParamExp:
		if x.Param == nil {
			return nil
		}
		n := &flow.Expr{Op: flow.Name, S: x.Param.Value, Line: ln, Col: col}
		if x.Length || x.Width {
			return []*flow.Expr{{Op: flow.Num, S: "?", Line: ln, Col: col}}
		}
		if x.Exp != nil && (x.Exp.Op == syntax.ErrorUnset || x.Exp.Op == syntax.ErrorUnsetOrNull) {
			// ${DIR:?}: the shell stops if it is empty, so it never
			// expands to nothing
			return []*flow.Expr{{Op: flow.Str, S: "${" + x.Param.Value + ":?}", Line: ln, Col: col}}
		}
		if x.Exp != nil && x.Exp.Word != nil {
			return []*flow.Expr{{Op: flow.Other, Args: []*flow.Expr{n, l.word(x.Exp.Word, depth+1)}, Line: ln, Col: col}}
		}
		if x.Index != nil && x.Slice == nil && x.Repl == nil {
			if w, ok := x.Index.(*syntax.Word); ok && (w.Lit() == "@" || w.Lit() == "*") {
				// "${ARGS[@]}": the array's elements, each a word
				return []*flow.Expr{{Op: flow.Elem, S: "@", X: n, Line: ln, Col: col}}
			}
		}
		if x.Slice != nil || x.Repl != nil || x.Index != nil {
			return []*flow.Expr{{Op: flow.Other, Args: []*flow.Expr{n}, Line: ln, Col: col}}
		}
		return []*flow.Expr{n}
	case *syntax.CmdSubst:
		return []*flow.Expr{l.subst(x.Stmts, ln, col, depth)}
	case *syntax.ProcSubst:
		return []*flow.Expr{l.subst(x.Stmts, ln, col, depth)}
	case *syntax.ArithmExp:
		return []*flow.Expr{{Op: flow.Num, S: "?", Line: ln, Col: col}}
	case *syntax.ExtGlob:
		return []*flow.Expr{{Op: flow.Str, S: x.Pattern.Value, Line: ln, Col: col}}
	case *syntax.BraceExp:
		var args []*flow.Expr
		for _, e := range x.Elems {
			args = append(args, l.word(e, depth+1))
		}
		return []*flow.Expr{{Op: flow.Other, Args: args, Line: ln, Col: col}}
	}
	return nil
}

// subst is the output of a command substitution: the values of its
// commands, after its assignments.
func (l *lowerer) subst(ss []*syntax.Stmt, ln, col int32, depth int) *flow.Expr {
	var outs []*flow.Expr
	var body []*flow.Stmt
	for _, s := range l.stmts(ss, depth+1) {
		if s.Op == flow.Eval {
			outs = append(outs, s.Val)
		} else {
			body = append(body, s)
		}
	}
	body = append(body, &flow.Stmt{Op: flow.Return, Val: &flow.Expr{Op: flow.Other, Args: outs, Line: ln, Col: col}, Line: ln, Col: col})
	fn := &flow.Func{Name: "$()", Line: ln, Body: body}
	return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Lambda, Fn: fn, Line: ln, Col: col}, Line: ln, Col: col}
}

func evals(ss []*flow.Stmt) []*flow.Expr {
	var out []*flow.Expr
	for _, s := range ss {
		if s.Op == flow.Eval {
			out = append(out, s.Val)
		}
	}
	return out
}

func unbackslash(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'…' string.
func ansiC(s string) string {
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
		case 'a', 'b', 'e', 'E', 'f', 'v':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'v': 11}[d])
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i = j - 1
			}
		case 'u', 'U':
			w := 4
			if d == 'U' {
				w = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+w && isHex(s[j]) {
				j++
			}
			if n, err := strconv.ParseUint(s[i+1:j], 16, 32); err == nil && utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
				i = j - 1
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(d)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
