package golang

import (
	"go/ast"
	"go/token"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

func (l *lowerer) stmts(ss []ast.Stmt, fs *funcState, depth int) []*flow.Stmt {
	var out []*flow.Stmt
	for _, s := range ss {
		out = append(out, l.stmt(s, fs, depth)...)
	}
	return out
}

func (l *lowerer) block(b *ast.BlockStmt, fs *funcState, depth int) []*flow.Stmt {
	if b == nil {
		return nil
	}
	return l.stmts(b.List, fs, depth+1)
}

func (l *lowerer) stmt(s ast.Stmt, fs *funcState, depth int) []*flow.Stmt {
	if s == nil || l.tooDeep(depth, s.Pos()) {
		return nil
	}
	ln, col := l.pos(s.Pos())
	one := func(st *flow.Stmt) []*flow.Stmt {
		st.Line, st.Col = ln, col
		return []*flow.Stmt{st}
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		if st := l.copyStmt(s.X, depth); st != nil {
			return one(st)
		}
		return one(&flow.Stmt{Op: flow.Eval, Val: l.expr(s.X, depth)})
	case *ast.AssignStmt:
		return one(l.assign(s, depth))
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			return l.genDecl(g, depth)
		}
	case *ast.GoStmt:
		// the call runs (on another goroutine)
		return one(&flow.Stmt{Op: flow.Eval, Val: l.expr(s.Call, depth)})
	case *ast.DeferStmt:
		// the call runs when the function returns
		return one(&flow.Stmt{Op: flow.Eval, Val: l.expr(s.Call, depth)})
	case *ast.ReturnStmt:
		st := &flow.Stmt{Op: flow.Return}
		switch {
		case len(s.Results) == 1:
			st.Val = l.expr(s.Results[0], depth)
		case len(s.Results) > 1:
			st.Val = l.list(s.Results, depth, ln, col)
		case len(fs.results) > 0:
			named := &flow.Expr{Op: flow.List, Line: ln, Col: col}
			for _, n := range fs.results {
				named.Args = append(named.Args, &flow.Expr{Op: flow.Name, S: n, Line: ln, Col: col})
			}
			if len(named.Args) == 1 {
				st.Val = named.Args[0]
			} else {
				st.Val = named
			}
		}
		return one(st)
	case *ast.BlockStmt:
		return one(&flow.Stmt{Op: flow.Block, Body: l.block(s, fs, depth)})
	case *ast.IfStmt:
		var out []*flow.Stmt
		if s.Init != nil {
			out = append(out, l.stmt(s.Init, fs, depth+1)...)
		}
		body := l.block(s.Body, fs, depth)
		if s.Else != nil {
			body = append(body, l.stmt(s.Else, fs, depth+1)...)
		}
		return append(out, &flow.Stmt{Op: flow.Block, Val: l.expr(s.Cond, depth), Body: body, Line: ln, Col: col})
	case *ast.ForStmt:
		var out []*flow.Stmt
		if s.Init != nil {
			out = append(out, l.stmt(s.Init, fs, depth+1)...)
		}
		body := l.block(s.Body, fs, depth)
		if s.Post != nil {
			body = append(body, l.stmt(s.Post, fs, depth+1)...)
		}
		w := &flow.Stmt{Op: flow.While, Body: body, Line: ln, Col: col}
		if s.Cond != nil {
			w.Val = l.expr(s.Cond, depth)
		}
		return append(out, w)
	case *ast.RangeStmt:
		f := &flow.Stmt{Op: flow.For, Val: l.expr(s.X, depth), Body: l.block(s.Body, fs, depth)}
		for _, x := range []ast.Expr{s.Key, s.Value} {
			if x != nil {
				f.Dst = append(f.Dst, l.expr(x, depth))
			}
		}
		if len(f.Dst) == 0 {
			f.Dst = []*flow.Expr{{Op: flow.Name, S: "_"}}
		}
		return one(f)
	case *ast.SwitchStmt:
		var out []*flow.Stmt
		if s.Init != nil {
			out = append(out, l.stmt(s.Init, fs, depth+1)...)
		}
		b := &flow.Stmt{Op: flow.Block, Body: l.clauses(s.Body, fs, depth), Line: ln, Col: col}
		if s.Tag != nil {
			b.Val = l.expr(s.Tag, depth)
		}
		return append(out, b)
	case *ast.TypeSwitchStmt:
		var out []*flow.Stmt
		if s.Init != nil {
			out = append(out, l.stmt(s.Init, fs, depth+1)...)
		}
		if s.Assign != nil {
			out = append(out, l.stmt(s.Assign, fs, depth+1)...)
		}
		return append(out, &flow.Stmt{Op: flow.Block, Body: l.clauses(s.Body, fs, depth), Line: ln, Col: col})
	case *ast.SelectStmt:
		return one(&flow.Stmt{Op: flow.Block, Body: l.clauses(s.Body, fs, depth)})
	case *ast.SendStmt:
		// the channel holds what is sent on it: an element stored into
		// the channel's value, which its receivers share
		elem := &flow.Expr{Op: flow.Index, X: l.expr(s.Chan, depth), Args: []*flow.Expr{{Op: flow.Other}}, Line: ln, Col: col}
		return one(&flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{elem}, Val: l.expr(s.Value, depth)})
	case *ast.LabeledStmt:
		return l.stmt(s.Stmt, fs, depth+1)
	case *ast.IncDecStmt, *ast.BranchStmt, *ast.EmptyStmt:
		return nil
	case *ast.BadStmt:
		l.note(ln, "a Go statement that does not parse")
	}
	return nil
}

// clauses lowers the cases of a switch or select: each case's
// expressions are evaluated, and every body may run.
func (l *lowerer) clauses(b *ast.BlockStmt, fs *funcState, depth int) []*flow.Stmt {
	if b == nil {
		return nil
	}
	var out []*flow.Stmt
	for _, c := range b.List {
		ln, col := l.pos(c.Pos())
		switch c := c.(type) {
		case *ast.CaseClause:
			st := &flow.Stmt{Op: flow.Block, Body: l.stmts(c.Body, fs, depth+1), Line: ln, Col: col}
			if len(c.List) > 0 {
				st.Val = &flow.Expr{Op: flow.Other, Args: l.exprs(c.List, depth), Line: ln, Col: col}
			}
			out = append(out, st)
		case *ast.CommClause:
			var body []*flow.Stmt
			if c.Comm != nil {
				body = l.stmt(c.Comm, fs, depth+1)
			}
			body = append(body, l.stmts(c.Body, fs, depth+1)...)
			out = append(out, &flow.Stmt{Op: flow.Block, Body: body, Line: ln, Col: col})
		}
	}
	return out
}

// assign lowers := and =, op= and multiple assignment: a, b := f() gives
// a and b the call's value (its elements when it returns several).
func (l *lowerer) assign(s *ast.AssignStmt, depth int) *flow.Stmt {
	ln, col := l.pos(s.Pos())
	dst := func() *flow.Expr {
		if len(s.Lhs) == 1 {
			return l.expr(s.Lhs[0], depth)
		}
		return l.list(s.Lhs, depth, ln, col)
	}
	switch s.Tok {
	case token.DEFINE, token.ASSIGN:
		var val *flow.Expr
		if len(s.Rhs) == 1 {
			val = l.expr(s.Rhs[0], depth)
		} else {
			val = l.list(s.Rhs, depth, ln, col)
		}
		return &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{dst()}, Val: val}
	}
	var val *flow.Expr
	if len(s.Rhs) > 0 {
		val = l.expr(s.Rhs[0], depth)
	}
	return &flow.Stmt{Op: flow.Aug, Dst: []*flow.Expr{dst()}, Val: val}
}

// copyStmt lowers copy(dst, src) as a statement: dst holds what src held.
func (l *lowerer) copyStmt(x ast.Expr, depth int) *flow.Stmt {
	c, ok := x.(*ast.CallExpr)
	if !ok || len(c.Args) != 2 {
		return nil
	}
	if id, ok := c.Fun.(*ast.Ident); !ok || id.Name != "copy" {
		return nil
	}
	ln, col := l.pos(c.Pos())
	return &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{l.expr(c.Args[0], depth)},
		Val: &flow.Expr{Op: flow.Other, Args: l.exprs(c.Args, depth), Line: ln, Col: col}}
}

// genDecl lowers var and const declarations (and local types, which
// carry no values).
func (l *lowerer) genDecl(d *ast.GenDecl, depth int) []*flow.Stmt {
	if d.Tok != token.VAR && d.Tok != token.CONST {
		return nil
	}
	var out []*flow.Stmt
	var last []ast.Expr // a const without values repeats the previous ones
	for _, sp := range d.Specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok || len(vs.Names) == 0 {
			continue
		}
		ln, col := l.pos(vs.Pos())
		vals := vs.Values
		if len(vals) == 0 && d.Tok == token.CONST {
			vals = last
		}
		last = vals
		var names []ast.Expr
		for _, n := range vs.Names {
			names = append(names, n)
		}
		st := &flow.Stmt{Op: flow.Assign, Line: ln, Col: col}
		switch {
		case len(vals) == 0:
			// the zero value of its type: a struct of a known type
			// still has its methods
			st.Val = l.zero(vs.Type, depth, ln, col)
		case len(vals) == 1:
			st.Val = l.expr(vals[0], depth)
		default:
			st.Val = l.list(vals, depth, ln, col)
		}
		if len(names) == 1 {
			st.Dst = []*flow.Expr{l.expr(names[0], depth)}
		} else {
			st.Dst = []*flow.Expr{l.list(names, depth, ln, col)}
			if len(vals) == 0 {
				st.Dst = l.exprs(names, depth)
			}
		}
		out = append(out, st)
	}
	return out
}

// zero is the zero value of a declared type.
func (l *lowerer) zero(t ast.Expr, depth int, ln, col int32) *flow.Expr {
	switch t := t.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr:
		if typeName(t) != "" && !basic[typeName(t)] {
			return &flow.Expr{Op: flow.Dict, X: l.typeExpr(t, depth), Line: ln, Col: col}
		}
	}
	return &flow.Expr{Op: flow.Other, Line: ln, Col: col}
}
