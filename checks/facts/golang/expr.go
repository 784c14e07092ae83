package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

// basic names the predeclared types: a call of one is a conversion, which
// passes its value.
var basic = map[string]bool{"string": true, "byte": true, "rune": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "float32": true, "float64": true, "complex64": true, "complex128": true, "bool": true,
	"error": true, "any": true}

func unquote(s string) (string, bool) {
	v, err := strconv.Unquote(s)
	return v, err == nil
}

func (l *lowerer) exprs(xs []ast.Expr, depth int) []*flow.Expr {
	out := make([]*flow.Expr, 0, len(xs))
	for _, x := range xs {
		out = append(out, l.expr(x, depth))
	}
	return out
}

func (l *lowerer) list(xs []ast.Expr, depth int, ln, col int32) *flow.Expr {
	return &flow.Expr{Op: flow.List, Args: l.exprs(xs, depth), Line: ln, Col: col}
}

func (l *lowerer) expr(x ast.Expr, depth int) *flow.Expr {
	if x == nil {
		return &flow.Expr{Op: flow.Other}
	}
	ln, col := l.pos(x.Pos())
	if l.tooDeep(depth, x.Pos()) {
		return &flow.Expr{Op: flow.Other, Line: ln, Col: col}
	}
	depth++
	mk := func(e *flow.Expr) *flow.Expr {
		if e.Line == 0 {
			e.Line, e.Col = ln, col
		}
		return e
	}
	switch x := x.(type) {
	case *ast.Ident:
		switch x.Name {
		case "nil", "true", "false", "iota":
			return mk(&flow.Expr{Op: flow.Num, S: x.Name})
		}
		return mk(&flow.Expr{Op: flow.Name, S: x.Name})
	case *ast.BasicLit:
		switch x.Kind {
		case token.STRING, token.CHAR:
			if s, ok := unquote(x.Value); ok {
				return mk(&flow.Expr{Op: flow.Str, S: s})
			}
			l.note(ln, "a Go string literal that does not decode")
			return mk(&flow.Expr{Op: flow.Other})
		}
		v := x.Value
		if len(v) > 2 && v[0] == '0' && (v[1] == 'o' || v[1] == 'O') {
			v = "0" + v[2:] // 0o755 is the 0755 that file modes are written as
		}
		return mk(&flow.Expr{Op: flow.Num, S: v})
	case *ast.CompositeLit:
		return mk(l.composite(x, depth))
	case *ast.FuncLit:
		fn := &flow.Func{Name: "<func>", Line: ln}
		l.funcBody(fn, x.Type, x.Body, depth)
		return mk(&flow.Expr{Op: flow.Lambda, Fn: fn})
	case *ast.ParenExpr:
		return l.expr(x.X, depth)
	case *ast.SelectorExpr:
		sl, sc := l.pos(x.Sel.Pos())
		return &flow.Expr{Op: flow.Attr, X: l.expr(x.X, depth), S: x.Sel.Name, Line: sl, Col: sc}
	case *ast.IndexExpr:
		return mk(&flow.Expr{Op: flow.Index, X: l.expr(x.X, depth), Args: []*flow.Expr{l.expr(x.Index, depth)}})
	case *ast.IndexListExpr:
		return l.expr(x.X, depth) // a generic instantiation
	case *ast.SliceExpr:
		return l.expr(x.X, depth) // a part of a slice or string holds what the whole did
	case *ast.TypeAssertExpr:
		return l.expr(x.X, depth)
	case *ast.StarExpr:
		return l.expr(x.X, depth)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return l.expr(x.X, depth) // a pointer is the value it points to
		}
		return mk(&flow.Expr{Op: flow.Other, Args: []*flow.Expr{l.expr(x.X, depth)}})
	case *ast.BinaryExpr:
		return mk(&flow.Expr{Op: flow.Bin, S: x.Op.String(), Args: []*flow.Expr{l.expr(x.X, depth), l.expr(x.Y, depth)}})
	case *ast.KeyValueExpr:
		return l.expr(x.Value, depth)
	case *ast.CallExpr:
		return mk(l.call(x, depth))
	case *ast.BadExpr:
		l.note(ln, "a Go expression that does not parse")
	}
	return mk(&flow.Expr{Op: flow.Other})
}

// typeExpr is a named type as a value: its name, or pkg.Name.
func (l *lowerer) typeExpr(t ast.Expr, depth int) *flow.Expr {
	for range 16 {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident, *ast.SelectorExpr:
			return l.expr(x, depth)
		}
		break
	}
	return nil
}

// composite lowers a composite literal: a struct or map as a Dict keyed
// by field or constant key (typed, so its methods resolve), a slice or
// array as a List.
func (l *lowerer) composite(c *ast.CompositeLit, depth int) *flow.Expr {
	ln, col := l.pos(c.Pos())
	keyed := false
	for _, e := range c.Elts {
		if _, ok := e.(*ast.KeyValueExpr); ok {
			keyed = true
		}
	}
	t := c.Type
	for {
		if p, ok := t.(*ast.ParenExpr); ok {
			t = p.X
			continue
		}
		break
	}
	switch t.(type) {
	case *ast.ArrayType, *ast.Ellipsis:
		lst := &flow.Expr{Op: flow.List, Line: ln, Col: col}
		for _, e := range c.Elts {
			lst.Args = append(lst.Args, l.expr(e, depth))
		}
		return lst
	case nil:
		if !keyed {
			return &flow.Expr{Op: flow.List, Args: l.exprs(c.Elts, depth), Line: ln, Col: col}
		}
	}
	d := &flow.Expr{Op: flow.Dict, Line: ln, Col: col}
	switch t.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr:
		d.X = l.typeExpr(t, depth)
	}
	fields := l.fields[typeName(t)]
	for i, e := range c.Elts {
		key := ""
		val := e
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			val = kv.Value
			switch k := kv.Key.(type) {
			case *ast.Ident:
				if _, isMap := t.(*ast.MapType); !isMap {
					key = k.Name
				}
			case *ast.BasicLit:
				if s, ok := unquote(k.Value); ok && k.Kind == token.STRING {
					key = s
				} else {
					key = k.Value
				}
			}
		} else if i < len(fields) {
			key = fields[i]
		} else {
			key = strconv.Itoa(i)
		}
		d.Keys = append(d.Keys, key)
		d.Args = append(d.Args, l.expr(val, depth))
	}
	return d
}

// conversion reports a call's function that is a type: the call passes
// its value.
func conversion(f ast.Expr) bool {
	switch f := f.(type) {
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true
	case *ast.Ident:
		return basic[f.Name]
	case *ast.ParenExpr:
		_, star := f.X.(*ast.StarExpr)
		return star || conversion(f.X)
	}
	return false
}

func (l *lowerer) call(c *ast.CallExpr, depth int) *flow.Expr {
	ln, col := l.pos(c.Pos())
	fun := c.Fun
	if conversion(fun) {
		if len(c.Args) == 1 {
			return l.expr(c.Args[0], depth)
		}
		return &flow.Expr{Op: flow.Other, Args: l.exprs(c.Args, depth), Line: ln, Col: col}
	}
	switch f := fun.(type) {
	case *ast.Ident:
		if x := l.builtin(f.Name, c, depth); x != nil {
			return x
		}
	case *ast.IndexExpr:
		fun = f.X // f[T](x) calls f
	case *ast.IndexListExpr:
		fun = f.X
	case *ast.SelectorExpr:
		if x := l.library(f, c, depth); x != nil {
			return x
		}
	}
	x := &flow.Expr{Op: flow.Call, X: l.expr(fun, depth), Line: ln, Col: col}
	for i, a := range c.Args {
		k := ""
		if i == len(c.Args)-1 && c.Ellipsis.IsValid() {
			k = "*"
		}
		x.Args = append(x.Args, l.expr(a, depth))
		x.Keys = append(x.Keys, k)
	}
	return x
}

// builtin lowers a call of a predeclared function; nil when the name is
// not one the lowering treats apart.
func (l *lowerer) builtin(name string, c *ast.CallExpr, depth int) *flow.Expr {
	ln, col := l.pos(c.Pos())
	switch name {
	case "append", "min", "max", "complex", "real", "imag":
		// the slice with what is appended to it
		return &flow.Expr{Op: flow.Other, Args: l.exprs(c.Args, depth), Line: ln, Col: col}
	case "len", "cap", "recover", "delete", "close", "clear":
		return &flow.Expr{Op: flow.Other, Line: ln, Col: col}
	case "new":
		if len(c.Args) == 1 {
			return l.zero(c.Args[0], depth, ln, col)
		}
	case "make":
		if len(c.Args) > 0 {
			if _, ok := c.Args[0].(*ast.MapType); ok {
				return &flow.Expr{Op: flow.Dict, Line: ln, Col: col}
			}
		}
		return &flow.Expr{Op: flow.List, Line: ln, Col: col}
	case "copy":
		return &flow.Expr{Op: flow.Other, Line: ln, Col: col}
	}
	return nil
}

// library lowers the standard library's formatting and copying calls by
// what they do with their operands: fmt.Sprintf builds a string from its
// format, and fmt.Fprintf, io.WriteString and io.Copy call their
// writer's Write. The writer's Write is then what the vocabulary
// judges.
func (l *lowerer) library(f *ast.SelectorExpr, c *ast.CallExpr, depth int) *flow.Expr {
	pkg, ok := f.X.(*ast.Ident)
	if !ok || c.Ellipsis.IsValid() {
		return nil
	}
	ln, col := l.pos(c.Pos())
	write := func(w ast.Expr, data *flow.Expr) *flow.Expr {
		wl, wc := l.pos(w.Pos())
		return &flow.Expr{Op: flow.Call, X: &flow.Expr{Op: flow.Attr, X: l.expr(w, depth), S: "Write", Line: wl, Col: wc},
			Args: []*flow.Expr{data}, Keys: []string{""}, Line: ln, Col: col}
	}
	switch l.imports[pkg.Name] {
	case "fmt":
		switch f.Sel.Name {
		case "Sprintf", "Errorf":
			return l.sprintf(c.Args, depth, ln, col)
		case "Sprint", "Sprintln":
			return l.sprint(c.Args, f.Sel.Name == "Sprintln", depth, ln, col)
		case "Fprintf":
			if len(c.Args) >= 2 {
				return write(c.Args[0], l.sprintf(c.Args[1:], depth, ln, col))
			}
		case "Fprint", "Fprintln":
			if len(c.Args) >= 1 {
				return write(c.Args[0], l.sprint(c.Args[1:], f.Sel.Name == "Fprintln", depth, ln, col))
			}
		}
	case "io":
		switch f.Sel.Name {
		case "WriteString", "Copy", "CopyN", "CopyBuffer":
			if len(c.Args) >= 2 {
				return write(c.Args[0], l.expr(c.Args[1], depth))
			}
		}
	}
	return nil
}

// sprintf is a format call as the string it builds: each verb is its
// operand; a format that is not a literal is every operand.
func (l *lowerer) sprintf(args []ast.Expr, depth int, ln, col int32) *flow.Expr {
	out := &flow.Expr{Op: flow.Fmt, Line: ln, Col: col}
	if len(args) == 0 {
		return out
	}
	lit, ok := args[0].(*ast.BasicLit)
	format := ""
	if ok && lit.Kind == token.STRING {
		format, ok = unquote(lit.Value)
	}
	if !ok {
		return &flow.Expr{Op: flow.Other, Args: l.exprs(args, depth), Line: ln, Col: col}
	}
	ops := args[1:]
	next := 0
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out.Args = append(out.Args, &flow.Expr{Op: flow.Str, S: text.String(), Line: ln, Col: col})
			text.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' {
			text.WriteByte(ch)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			if format[j] == '*' {
				next++ // a width or precision operand
			}
			j++
		}
		if j >= len(format) {
			break
		}
		if format[j] == '%' {
			text.WriteByte('%')
		} else if next < len(ops) {
			flush()
			out.Args = append(out.Args, l.expr(ops[next], depth))
			next++
		}
		i = j
	}
	flush()
	for ; next < len(ops); next++ {
		out.Args = append(out.Args, l.expr(ops[next], depth))
	}
	return out
}

func (l *lowerer) sprint(args []ast.Expr, spaced bool, depth int, ln, col int32) *flow.Expr {
	out := &flow.Expr{Op: flow.Fmt, Line: ln, Col: col}
	for i, a := range args {
		if i > 0 && spaced {
			out.Args = append(out.Args, &flow.Expr{Op: flow.Str, S: " ", Line: ln, Col: col})
		}
		out.Args = append(out.Args, l.expr(a, depth))
	}
	return out
}
