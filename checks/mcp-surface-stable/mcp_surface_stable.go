package mcpsurfacestable

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-surface-stable.
var Check = &checks.Check{
	ID:          "mcp-surface-stable",
	Version:     "1.3.0",
	Title:       "The tool surface does not change after approval",
	Axis:        checks.Safety,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	register = map[string]bool{"registerTool": true, "tool": true, "registerPrompt": true, "prompt": true, "registerResource": true, "resource": true,
		"add_tool": true, "remove_tool": true, "add_prompt": true, "add_resource": true}
	// Calls whose function arguments run later: handlers, timers, callbacks.
	deferred = map[string]bool{"registerTool": true, "tool": true, "registerPrompt": true, "prompt": true, "registerResource": true, "resource": true,
		"setRequestHandler": true, "setNotificationHandler": true, "setInterval": true, "setTimeout": true, "on": true, "once": true,
		"addEventListener": true, "get": true, "post": true, "use": true}
	listChanged = map[string]bool{"sendToolListChanged": true, "sendPromptListChanged": true, "sendResourceListChanged": true, "send_tool_list_changed": true, "send_prompt_list_changed": true, "send_resource_list_changed": true}
	// volatileDesc are names of the clock, randomness and counters; a
	// network call is the vocabulary's (vocab.Networked).
	volatileDesc = []string{"Date", "now", "random", "counter", "count", "time", "datetime", "uuid"}
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var fails []checks.Evidence
	declaresListChanged := false
	for f, fl := range files.Code(s) {
		if strings.Contains(s.Text(f), "listChanged") {
			declaresListChanged = true
		}
		fails = append(fails, scan(f.Path, fl)...)
	}
	for f := range files.Scan(s) {
		if files.IsText(f) && files.Language(f.Path, f.Content) == "go" {
			fails = append(fails, scanGo(f.Path, s.Text(f))...)
		}
	}
	fails = reach.Annotate(s, fails)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), fails...), nil
	case declaresListChanged:
		return checks.Warning(0.5, "listChanged is declared but no dynamic registration was found; a fixed surface need not announce changes"), nil
	}
	return checks.Passed("the surface is declared at startup; nothing changes it later"), nil
}

// scan reads a JS/TS or Python file.
func scan(p string, fl *fold.File) []checks.Evidence {
	var out []checks.Evidence
	calls := fl.Calls()
	inDeferred := func(c fold.Call) string {
		for _, o := range calls {
			if o.Index < c.Index && c.End <= o.End && deferred[base(o.Name)] && o.Index != c.Index {
				// the registration sits inside the outer call's arguments:
				// a function passed to it runs later
				return base(o.Name)
			}
		}
		return ""
	}
	for _, c := range calls {
		b := base(c.Name)
		switch {
		case register[b] && strings.Contains(c.Name, "."):
			if outer := inDeferred(c); outer != "" {
				out = append(out, checks.At(p, c.Line, 0, fmt.Sprintf("%s() runs inside %s(): the surface changes after approval", b, outer)))
			} else if b == "remove_tool" {
				out = append(out, checks.At(p, c.Line, 0, "remove_tool() changes the surface"))
			}
			if len(c.Args) >= 2 && (b == "registerTool" || b == "tool") && volatile(fl.Lang, c.Args[1]) {
				out = append(out, checks.At(p, c.Line, 0, "a tool description computed from the clock, randomness, a counter or the network"))
			}
		case listChanged[b] && inDeferred(c) != "":
			out = append(out, checks.At(p, c.Line, 0, fmt.Sprintf("%s() from a handler tells clients the surface changed", b)))
		case b == "update" && len(c.Args) == 1 && hasKey(c.Args[0], "description"):
			out = append(out, checks.At(p, c.Line, 0, "a registered tool's description updated at run time"))
		}
	}
	ts := fl.Toks
	if fl.Lang == "python" {
		out = append(out, pyHandlers(p, ts)...)
	}
	for i := 1; i+2 < len(ts); i++ {
		if ts[i-1].Text == "." && ts[i].Text == "description" && ts[i+1].Text == "=" && ts[i+2].Text != "=" {
			out = append(out, checks.At(p, int(ts[i].Line), 0, "a description assigned at run time"))
		}
	}
	return out
}

func base(name string) string { return name[strings.LastIndex(name, ".")+1:] }

func hasKey(ts []lex.Token, key string) bool {
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].Text == key && ts[i+1].Text == ":" {
			return true
		}
	}
	return false
}

// volatile reports a tool config or description that reads the clock,
// randomness, a counter or the network (a call the vocabulary knows as
// reaching it).
func volatile(lang string, ts []lex.Token) bool {
	var b strings.Builder
	for _, t := range ts {
		if t.Kind == lex.Ident && slices.Contains(volatileDesc, t.Text) {
			return true
		}
		b.WriteString(t.Text)
		b.WriteByte(' ')
	}
	for _, c := range fold.Parse(lang, b.String()).Calls() {
		if vocab.Networked(lang, c.Name) {
			return true
		}
	}
	return false
}

// scanGo finds AddTool after the server starts, or inside a function
// literal (a handler).
func scanGo(p, src string) []checks.Evidence {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []checks.Evidence
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		served := token.NoPos
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, func(m ast.Node) bool {
					if c, ok := m.(*ast.CallExpr); ok && isAdd(c) {
						out = append(out, checks.At(p, fset.Position(c.Pos()).Line, 0, "AddTool inside a function literal (a handler or callback): the surface changes after approval"))
					}
					return true
				})
				return false
			}
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Run" || sel.Sel.Name == "ServeStdio" || sel.Sel.Name == "Serve") && served == token.NoPos {
				if _, isGo := n.(*ast.CallExpr); isGo {
					served = c.End()
				}
			}
			if isAdd(c) && served != token.NoPos && c.Pos() > served {
				out = append(out, checks.At(p, fset.Position(c.Pos()).Line, 0, "AddTool after the server starts serving"))
			}
			return true
		})
	}
	return out
}

func isAdd(c *ast.CallExpr) bool {
	var name string
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		name = f.Sel.Name
	case *ast.IndexExpr:
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			name = s.Sel.Name
		}
	case *ast.IndexListExpr:
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			name = s.Sel.Name
		}
	}
	return name == "AddTool" || name == "RemoveTools" || name == "DeleteTools" || name == "AddPrompt" || name == "AddResource"
}

// pyHandlers finds surface changes in the body of a decorated handler
// (@server.call_tool(), @mcp.tool(), ...): Python bodies are indented,
// not call arguments.
func pyHandlers(p string, ts []lex.Token) []checks.Evidence {
	var out []checks.Evidence
	for i := 0; i+2 < len(ts); i++ {
		if ts[i].Text != "@" || !ts[i].LineStart {
			continue
		}
		j := i + 1
		for j+1 < len(ts) && (ts[j].Kind == lex.Ident || ts[j].Text == ".") && ts[j+1].Line == ts[i].Line {
			j++
		}
		switch ts[j-1].Text {
		case "tool", "call_tool", "list_tools", "prompt", "get_prompt", "resource", "read_resource":
		default:
			continue
		}
		def := j
		for def < len(ts) && ts[def].Text != "def" {
			def++
		}
		if def >= len(ts) {
			return out
		}
		col := ts[def].Col
		if def > 0 && ts[def-1].Text == "async" && ts[def-1].Line == ts[def].Line {
			col = ts[def-1].Col
		}
		for k := def + 1; k+1 < len(ts); k++ {
			if ts[k].LineStart && ts[k].Col <= col && ts[k].Line != ts[def].Line {
				break
			}
			if ts[k].Kind == lex.Ident && ts[k+1].Text == "(" && (register[ts[k].Text] && strings.Contains(ts[k].Text, "_") || listChanged[ts[k].Text]) {
				out = append(out, checks.At(p, int(ts[k].Line), 0, fmt.Sprintf("%s() inside a request handler: the surface changes after approval", ts[k].Text)))
			}
		}
	}
	return out
}
