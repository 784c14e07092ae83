package mcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// MaxGoSourceBytes bounds a Go file handed to the parser.
const MaxGoSourceBytes = 8 << 20

// discoverGo reads registrations of the official go-sdk (mcp.AddTool,
// server.AddTool, AddPrompt, AddResource, AddResourceTemplate with
// &mcp.Tool{…} literals) and of mark3labs/mcp-go (mcp.NewTool with
// WithDescription and parameter options, NewPrompt, NewResource,
// NewResourceTemplate), folding string constants of the file.
func discoverGo(src Source, s *Surface) {
	if len(src.Text) > MaxGoSourceBytes {
		s.Unresolved = append(s.Unresolved, Unresolved{Kind: "tool", What: "file over the size limit", Site: Site{File: src.Path}})
		return
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, src.Path, src.Text, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	g := &goFile{src: src, fset: fset, s: s, consts: map[string]string{}}
	// String constants and variables of the file, in two passes so that
	// one built from another folds.
	for pass := 0; pass < 2; pass++ {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST && gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs, ok := sp.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, n := range vs.Names {
					if v, ok := g.str(vs.Values[i]); ok {
						g.consts[n.Name] = v
					}
				}
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch name := funcName(call); name {
		case "AddTool", "AddPrompt", "AddResource", "AddResourceTemplate":
			for _, a := range call.Args {
				if lit := compositeOf(a); lit != nil {
					g.literal(lit, call)
				}
			}
		case "NewTool", "NewPrompt", "NewResource", "NewResourceTemplate":
			g.mark3labs(name, call)
		}
		return true
	})
}

type goFile struct {
	src    Source
	fset   *token.FileSet
	s      *Surface
	consts map[string]string
}

func (g *goFile) site(n ast.Node) Site {
	return Site{File: g.src.Path, Line: g.fset.Position(n.Pos()).Line}
}

// str folds a string expression: literals, + concatenation, parentheses
// and the file's constants.
func (g *goFile) str(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		v, err := strconv.Unquote(x.Value)
		return v, err == nil
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := g.str(x.X)
		b, ok2 := g.str(x.Y)
		if !ok1 || !ok2 || len(a)+len(b) > 1<<20 {
			return "", false
		}
		return a + b, true
	case *ast.ParenExpr:
		return g.str(x.X)
	case *ast.Ident:
		v, ok := g.consts[x.Name]
		return v, ok
	}
	return "", false
}

func funcName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	case *ast.IndexExpr: // a generic call: mcp.AddTool[In, Out](…)
		if sel, ok := f.X.(*ast.SelectorExpr); ok {
			return sel.Sel.Name
		}
	case *ast.IndexListExpr:
		if sel, ok := f.X.(*ast.SelectorExpr); ok {
			return sel.Sel.Name
		}
	}
	return ""
}

func compositeOf(e ast.Expr) *ast.CompositeLit {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	}
	return ""
}

// fields reads a composite literal's string fields by key.
func (g *goFile) fields(lit *ast.CompositeLit, kind, name string, site Site) map[string]string {
	out := map[string]string{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if v, ok := g.str(kv.Value); ok {
			out[key.Name] = v
		} else if key.Name == "Description" || key.Name == "Name" {
			g.s.Unresolved = append(g.s.Unresolved, Unresolved{Kind: kind, Name: name, What: key.Name, Site: site})
		}
	}
	return out
}

// literal reads a go-sdk &mcp.Tool{…}, &mcp.Prompt{…}, &mcp.Resource{…}
// or &mcp.ResourceTemplate{…} handed to an Add call.
func (g *goFile) literal(lit *ast.CompositeLit, call *ast.CallExpr) {
	site := g.site(call)
	if len(call.Args) > 0 {
		if id, ok := call.Args[len(call.Args)-1].(*ast.Ident); ok {
			site.Handler = id.Name
		}
	}
	switch typeName(lit.Type) {
	case "Tool":
		f := g.fields(lit, "tool", "", site)
		g.s.Tools = append(g.s.Tools, Tool{Name: f["Name"], Title: f["Title"], Description: f["Description"], Site: site})
	case "Prompt":
		f := g.fields(lit, "prompt", "", site)
		p := Prompt{Name: f["Name"], Title: f["Title"], Description: f["Description"], Site: site}
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok && typeName(kv.Key) == "Arguments" {
				if args, ok := kv.Value.(*ast.CompositeLit); ok {
					for _, a := range args.Elts {
						if al := compositeOf(a); al != nil {
							af := g.fields(al, "prompt", p.Name, site)
							p.Arguments = append(p.Arguments, Param{Name: af["Name"], Title: af["Title"], Description: af["Description"]})
						}
					}
				}
			}
		}
		g.s.Prompts = append(g.s.Prompts, p)
	case "Resource", "ResourceTemplate":
		f := g.fields(lit, "resource", "", site)
		g.s.Resources = append(g.s.Resources, Resource{Name: f["Name"], Title: f["Title"], Description: f["Description"],
			URI: f["URI"], URITemplate: f["URITemplate"], MIMEType: f["MIMEType"], Site: site})
	}
}

// mark3labs reads mcp.NewTool(name, options…) and its siblings.
func (g *goFile) mark3labs(kind string, call *ast.CallExpr) {
	site := g.site(call)
	if len(call.Args) == 0 {
		return
	}
	first, ok := g.str(call.Args[0])
	if !ok {
		g.s.Unresolved = append(g.s.Unresolved, Unresolved{Kind: map[string]string{"NewTool": "tool", "NewPrompt": "prompt"}[kind], What: "name", Site: site})
		return
	}
	opt := func(c *ast.CallExpr, names ...string) (string, bool) {
		n := funcName(c)
		for _, want := range names {
			if n == want && len(c.Args) > 0 {
				return g.str(c.Args[0])
			}
		}
		return "", false
	}
	switch kind {
	case "NewTool":
		t := Tool{Name: first, Site: site}
		for _, a := range call.Args[1:] {
			c, ok := a.(*ast.CallExpr)
			if !ok {
				continue
			}
			if d, ok := opt(c, "WithDescription"); ok {
				t.Description = d
			} else if funcName(c) == "WithDescription" {
				g.s.Unresolved = append(g.s.Unresolved, Unresolved{Kind: "tool", Name: first, What: "description", Site: site})
			}
			if d, ok := opt(c, "WithTitleAnnotation"); ok {
				t.Title = d
			}
			switch funcName(c) {
			case "WithString", "WithNumber", "WithBoolean", "WithArray", "WithObject", "WithInteger":
				if len(c.Args) == 0 {
					continue
				}
				pn, _ := g.str(c.Args[0])
				p := Param{Name: pn}
				for _, po := range c.Args[1:] {
					if pc, ok := po.(*ast.CallExpr); ok {
						if d, ok := opt(pc, "Description"); ok {
							p.Description = d
						}
						if d, ok := opt(pc, "Title"); ok {
							p.Title = d
						}
					}
				}
				t.Params = append(t.Params, p)
			}
		}
		g.s.Tools = append(g.s.Tools, t)
	case "NewPrompt":
		p := Prompt{Name: first, Site: site}
		for _, a := range call.Args[1:] {
			if c, ok := a.(*ast.CallExpr); ok {
				if d, ok := opt(c, "WithPromptDescription"); ok {
					p.Description = d
				}
				if funcName(c) == "WithArgument" && len(c.Args) > 0 {
					an, _ := g.str(c.Args[0])
					arg := Param{Name: an}
					for _, ao := range c.Args[1:] {
						if ac, ok := ao.(*ast.CallExpr); ok {
							if d, ok := opt(ac, "ArgumentDescription"); ok {
								arg.Description = d
							}
						}
					}
					p.Arguments = append(p.Arguments, arg)
				}
			}
		}
		g.s.Prompts = append(g.s.Prompts, p)
	case "NewResource", "NewResourceTemplate":
		r := Resource{Site: site}
		if kind == "NewResource" {
			r.URI = first
		} else {
			r.URITemplate = first
		}
		if len(call.Args) > 1 {
			r.Name, _ = g.str(call.Args[1])
		}
		for _, a := range call.Args[2:] {
			if c, ok := a.(*ast.CallExpr); ok {
				if d, ok := opt(c, "WithResourceDescription", "WithTemplateDescription"); ok {
					r.Description = d
				}
				if d, ok := opt(c, "WithMIMEType", "WithTemplateMIMEType"); ok {
					r.MIMEType = d
				}
			}
		}
		g.s.Resources = append(g.s.Resources, r)
	}
}
