// Package golang lowers Go source into the flow engine's program form
// (checks/facts/flow) with go/parser. A file that does not parse is
// lowered from the partial tree the parser returns, and what it could not
// read is recorded; a snippet without a package clause (a fenced block in
// a document) is read as a file, then as a function body. Methods are
// functions whose first parameter is the receiver, grouped under their
// type as a class, so a call on a value of the artifact's own type runs
// its method.
package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/checks/facts/flow"
)

// Limits on untrusted input.
const (
	MaxBytes = 4 << 20 // source lowered per file; the rest is recorded as not read
	MaxDepth = 200     // nesting of expressions and statements followed
)

// Version is the producer's version; it enters the catalog entry of every
// check that uses it.
const Version = "1.0.0"

// Wrappers tried, in order, on a source that does not parse as a file:
// each keeps the source's lines where they are (the prefix shares line 1).
var wrappers = []struct{ pre, post string }{
	{"", ""},
	{"package p;", ""},
	{"package p; func _() {", "\n}"},
}

// Lower parses src as Go. Line numbers are offset by lineBase (the line
// before the code's first, for code inside a document).
func Lower(path, src string, lineBase int32) *flow.Unit {
	u := &flow.Unit{Path: path, Lang: "go", Top: &flow.Func{}}
	if len(src) > MaxBytes {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "Go source past the first 4 MiB not analysed"})
		src = src[:MaxBytes]
	}
	var best *ast.File
	var bestFset *token.FileSet
	var bestErr error
	bestPre, bestErrs := 0, 0
	tries := wrappers[1:]
	if hasPackageClause(src) {
		tries = wrappers[:1] // a file with its package clause is not a snippet
	}
	for _, w := range tries {
		fset := token.NewFileSet()
		f, err := parse(fset, path, w.pre+src+w.post)
		if f == nil {
			continue
		}
		if n := errCount(err); best == nil || n < bestErrs {
			best, bestFset, bestErr, bestPre, bestErrs = f, fset, err, len(w.pre), n
		}
		if err == nil {
			break
		}
	}
	if best == nil {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "Go source that does not parse"})
		return u
	}
	l := &lowerer{u: u, fset: bestFset, base: lineBase, pre: bestPre, imports: map[string]string{}, fields: map[string][]string{}}
	if bestErr != nil {
		l.parseErrors(bestErr)
	}
	u.Top.Body = l.file(best)
	return u
}

var packageClause = regexp.MustCompile(`(?m)^\s*package\s+[A-Za-z_]`)

func hasPackageClause(src string) bool { return packageClause.MatchString(src) }

func errCount(err error) int {
	if err == nil {
		return 0
	}
	if list, ok := err.(scanner.ErrorList); ok {
		return len(list)
	}
	return 1 << 20
}

// parse runs go/parser; a panic inside it is a file that does not parse.
func parse(fset *token.FileSet, path, src string) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("go parser failed: %v", r)
		}
	}()
	return parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
}

type lowerer struct {
	u    *flow.Unit
	fset *token.FileSet
	tf   *token.File // the one file parsed: positions without the set's lock
	base int32
	pre  int // bytes a wrapper added before line 1
	// imports maps a local package name to its import path.
	imports map[string]string
	// fields lists the field names of the file's struct types, for
	// literals that give them by position.
	fields  map[string][]string
	deep    bool // the depth note was recorded
	noteFor map[int32]bool
}

func (l *lowerer) pos(p token.Pos) (int32, int32) {
	if !p.IsValid() {
		return l.base, 0
	}
	if l.tf == nil {
		l.tf = l.fset.File(p)
	}
	if l.tf == nil || int(p) < l.tf.Base() || int(p) > l.tf.Base()+l.tf.Size() {
		return l.base, 0
	}
	ps := l.tf.PositionFor(p, false)
	col := ps.Column
	if ps.Line == 1 {
		col -= l.pre
	}
	return l.base + int32(ps.Line), int32(max(col, 0))
}

func (l *lowerer) note(line int32, what string) {
	if l.noteFor == nil {
		l.noteFor = map[int32]bool{}
	}
	if l.noteFor[line] || len(l.u.Unresolved) >= 64 {
		return
	}
	l.noteFor[line] = true
	l.u.Unresolved = append(l.u.Unresolved, flow.Note{Line: line, What: what})
}

func (l *lowerer) tooDeep(depth int, p token.Pos) bool {
	if depth <= MaxDepth {
		return false
	}
	if !l.deep {
		l.deep = true
		ln, _ := l.pos(p)
		l.note(ln, "Go nested too deeply to follow")
	}
	return true
}

// parseErrors records where the parser gave up: what follows on those
// lines was lowered from a partial tree.
func (l *lowerer) parseErrors(err error) {
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) == 0 {
		l.note(l.base+1, "Go source that does not parse")
		return
	}
	for i, e := range list {
		if i >= 8 {
			break
		}
		l.note(l.base+int32(e.Pos.Line), "Go syntax error: "+e.Msg)
	}
}

// file lowers the declarations: imports, then types with their methods
// (as classes, embedded types first, so promoted methods resolve), then
// package-level values and functions in source order.
func (l *lowerer) file(f *ast.File) []*flow.Stmt {
	type typeInfo struct {
		name    string
		line    int32
		embeds  []ast.Expr
		methods []*ast.FuncDecl
	}
	types := map[string]*typeInfo{}
	var order []string
	get := func(n string) *typeInfo {
		t := types[n]
		if t == nil {
			t = &typeInfo{name: n}
			types[n] = t
			order = append(order, n)
		}
		return t
	}
	var body []*flow.Stmt
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			switch d.Tok {
			case token.IMPORT:
				for _, s := range d.Specs {
					l.importSpec(s.(*ast.ImportSpec))
				}
			case token.TYPE:
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					t := get(ts.Name.Name)
					t.line, _ = l.pos(ts.Pos())
					if st, ok := ts.Type.(*ast.StructType); ok && st.Fields != nil {
						for _, fl := range st.Fields.List {
							if len(fl.Names) == 0 {
								t.embeds = append(t.embeds, fl.Type)
								l.fields[ts.Name.Name] = append(l.fields[ts.Name.Name], typeName(fl.Type))
							}
							for _, n := range fl.Names {
								l.fields[ts.Name.Name] = append(l.fields[ts.Name.Name], n.Name)
							}
						}
					}
				}
			default:
				body = append(body, l.genDecl(d, 0)...)
			}
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				if n := typeName(d.Recv.List[0].Type); n != "" {
					t := get(n)
					t.methods = append(t.methods, d)
					if t.line == 0 {
						t.line, _ = l.pos(d.Pos())
					}
					continue
				}
			}
			if d.Name == nil {
				continue
			}
			fn := l.funcDecl(d)
			ln, col := l.pos(d.Pos())
			body = append(body, &flow.Stmt{Op: flow.Def, Fn: fn, Line: ln, Col: col})
		case *ast.BadDecl:
			ln, _ := l.pos(d.Pos())
			l.note(ln, "a Go declaration that does not parse")
		}
	}
	// classes, embedded types before the types that embed them
	var classes []*flow.Stmt
	done := map[string]bool{}
	var emit func(n string, depth int)
	emit = func(n string, depth int) {
		t := types[n]
		if t == nil || done[n] || depth > 32 {
			return
		}
		done[n] = true
		for _, e := range t.embeds {
			emit(typeName(e), depth+1)
		}
		if len(t.methods) == 0 && len(t.embeds) == 0 {
			return
		}
		cl := &flow.Func{Name: n, Line: t.line}
		for _, e := range t.embeds {
			if en := typeName(e); types[en] != nil {
				cl.Decorators = append(cl.Decorators, &flow.Expr{Op: flow.Name, S: en, Line: t.line})
			}
		}
		for _, m := range t.methods {
			fn := l.funcDecl(m)
			fn.Class = n
			ln, col := l.pos(m.Pos())
			cl.Body = append(cl.Body, &flow.Stmt{Op: flow.Def, Fn: fn, Line: ln, Col: col})
		}
		classes = append(classes, &flow.Stmt{Op: flow.Class, Fn: cl, Line: t.line})
	}
	for _, n := range order {
		emit(n, 0)
	}
	return append(classes, body...)
}

// typeName is the base name of a (possibly pointer, generic or qualified)
// type: "T" for *T, T[int], pkg.T.
func typeName(x ast.Expr) string {
	for range 16 {
		switch t := x.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		default:
			return ""
		}
	}
	return ""
}

func (l *lowerer) importSpec(s *ast.ImportSpec) {
	p, ok := unquote(s.Path.Value)
	if !ok || p == "" {
		return
	}
	mod := p
	// a major-version suffix is not the package's name: yaml.v3, foo/v2
	parts := strings.Split(p, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && isMajor(last) {
		mod = strings.Join(parts[:len(parts)-1], "/")
		last = parts[len(parts)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 && isMajor(last[i+1:]) {
		last = last[:i]
		mod = strings.Join(append(parts[:len(parts)-1], last), "/")
	}
	// the package's name as its repository is usually spelled: go-yaml
	// is yaml, keyring-go is keyring
	name := strings.TrimPrefix(strings.TrimPrefix(last, "go-"), "go.")
	name = strings.TrimSuffix(strings.TrimSuffix(name, "-go"), ".go")
	if name == "" {
		name = last
	}
	if name != last {
		mod = strings.TrimSuffix(mod, last) + name
	}
	local := name
	if s.Name != nil {
		local = s.Name.Name
	}
	if local == "_" || local == "." {
		return
	}
	ln, _ := l.pos(s.Pos())
	l.imports[local] = p
	l.u.Imports = append(l.u.Imports, flow.Import{Local: local, Module: mod, Line: ln})
}

func isMajor(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// funcDecl lowers a function or a method; a method's receiver is its
// first parameter.
func (l *lowerer) funcDecl(d *ast.FuncDecl) *flow.Func {
	ln, _ := l.pos(d.Pos())
	fn := &flow.Func{Line: ln}
	if d.Name != nil {
		fn.Name = d.Name.Name
	}
	if d.Recv != nil && len(d.Recv.List) > 0 {
		r := d.Recv.List[0]
		n := "\x00recv"
		if len(r.Names) > 0 && r.Names[0].Name != "_" {
			n = r.Names[0].Name
		}
		fn.Params = append(fn.Params, flow.Param{Name: n})
	}
	l.funcBody(fn, d.Type, d.Body, 0)
	return fn
}

// funcBody fills a function's parameters and body; a bare return gives
// the named results.
func (l *lowerer) funcBody(fn *flow.Func, t *ast.FuncType, body *ast.BlockStmt, depth int) {
	var results []string
	if t != nil {
		if t.Params != nil {
			for _, fl := range t.Params.List {
				_, rest := fl.Type.(*ast.Ellipsis)
				if len(fl.Names) == 0 {
					fn.Params = append(fn.Params, flow.Param{Name: fmt.Sprintf("\x00p%d", len(fn.Params)), Rest: rest})
				}
				for _, n := range fl.Names {
					fn.Params = append(fn.Params, flow.Param{Name: n.Name, Rest: rest})
				}
			}
		}
		if t.Results != nil {
			for _, fl := range t.Results.List {
				for _, n := range fl.Names {
					results = append(results, n.Name)
				}
			}
		}
	}
	if body == nil {
		return
	}
	fs := &funcState{results: results}
	fn.Body = l.stmts(body.List, fs, depth+1)
}

// funcState is what a function's statements need from it.
type funcState struct {
	results []string
}
