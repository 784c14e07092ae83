package mcplaunchable

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is mcp-launchable.
var Check = &checks.Check{
	ID:          "mcp-launchable",
	Version:     "1.1.0",
	Title:       "MCP server has a launcher",
	Axis:        checks.Integrity,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Forms:       []resolve.Form{resolve.FormClientConfig},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Identifiers that create or run an MCP server transport in JS/TS.
var jsTransports = []string{"StdioServerTransport", "StreamableHTTPServerTransport", "SSEServerTransport", "FastMCP", "MCPServer"}

// Go and Python SDK import paths.
var goSDKs = []string{"github.com/modelcontextprotocol/go-sdk", "github.com/mark3labs/mcp-go", "github.com/metoro-io/mcp-golang"}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	m := s.Manifests
	inv := s.Inventory
	pass := func(summary, p string, line int) (checks.Result, error) {
		return checks.Passed(summary, checks.At(p, line, 0, "")), nil
	}
	if s.Form() == resolve.FormClientConfig {
		return clientConfig(m.MCPConfig.Path, m.MCPConfig.V.Servers), nil
	}
	if m.Package.Ok() {
		p := m.Package.V
		if len(p.Bin) > 0 {
			return pass("launched through package.json bin "+strconv.Quote(p.Bin[0].Name), m.Package.Path, p.Bin[0].Pos.Line)
		}
		if st, ok := p.Scripts["start"]; ok {
			return pass("launched through package.json scripts.start", m.Package.Path, st.Pos.Line)
		}
		for _, entry := range []string{fieldValue(p.Main), fieldValue(p.ExportsDot)} {
			if entry == "" {
				continue
			}
			if f := findJSTransport(inv, entry); f != "" {
				return pass("package.json main "+strconv.Quote(entry)+" creates a server transport", f, 0)
			}
		}
	}
	if m.Pyproject.Ok() && len(m.Pyproject.V.Scripts) > 0 {
		sc := m.Pyproject.V.Scripts[0]
		return pass("launched through pyproject.toml script "+strconv.Quote(sc.Name), m.Pyproject.Path, sc.Pos.Line)
	}
	if m.Cargo.Ok() && len(m.Cargo.V.Bins) > 0 {
		return pass("Cargo.toml declares a bin target", m.Cargo.Path, m.Cargo.V.Bins[0].Pos.Line)
	}
	if m.Cargo.Ok() {
		if _, ok := inv.File("src/main.rs"); ok {
			return pass("Rust bin target src/main.rs", "src/main.rs", 0)
		}
	}
	for i := range inv.Files {
		f := &inv.Files[i]
		if !f.Scanned {
			continue
		}
		switch {
		case path.Base(f.Path) == "__main__.py":
			return pass("Python package entry "+f.Path, f.Path, 0)
		case strings.HasSuffix(f.Path, ".py"):
			if line := pythonMainRunsServer(f.Content); line > 0 {
				return pass(f.Path+" runs an MCP server under __main__", f.Path, line)
			}
		case strings.HasSuffix(f.Path, ".go") && m.GoMod != nil && goMainRoot(f.Path):
			if line := goMainImportsSDK(f.Path, f.Content); line > 0 {
				return pass("Go main package "+path.Dir(f.Path)+" imports an MCP SDK", f.Path, line)
			}
		}
	}
	if m.ServerJSON.Ok() {
		sj := m.ServerJSON.V
		for _, p := range sj.Packages {
			if p.RegistryType != "" && p.Identifier != "" {
				return pass("server.json declares the "+p.RegistryType+" package "+strconv.Quote(p.Identifier), m.ServerJSON.Path, p.Pos.Line)
			}
		}
		if len(sj.Remotes) > 0 {
			return pass("remote-only: server.json declares a remote endpoint", m.ServerJSON.Path, sj.Remotes[0].Pos.Line)
		}
	}
	var read []string
	for _, st := range m.All() {
		read = append(read, st.Path)
	}
	var ev []checks.Evidence
	for _, p := range read {
		ev = append(ev, checks.At(p, 0, 0, "read; declares no launcher"))
	}
	return checks.Failed("no way to launch the server is declared", ev...), nil
}

// clientConfig judges an MCP client configuration: every server entry
// must say how the client reaches it, a command to start or a URL.
func clientConfig(file string, servers []manifest.MCPServerSpec) checks.Result {
	var bad []checks.Evidence
	for _, sv := range servers {
		if strings.TrimSpace(sv.Command) == "" && strings.TrimSpace(sv.URL) == "" {
			bad = append(bad, checks.At(file, sv.Pos.Line, sv.Pos.Col, fmt.Sprintf("server %q has neither a command nor a URL", sv.Name)))
		}
	}
	if len(bad) > 0 {
		return checks.Failed(fmt.Sprintf("%s of %s cannot be launched", checks.Plural(len(bad), "server entry"), file), bad...)
	}
	return checks.Passed(fmt.Sprintf("every server entry of %s names a command or a URL (%d)", file, len(servers)), checks.At(file, servers[0].Pos.Line, 0, ""))
}

func fieldValue(f *manifest.StringField) string {
	if f == nil {
		return ""
	}
	return f.Value
}

// goMainRoot reports whether a Go file sits where a server's main package
// lives: the module root or cmd/<name>/.
func goMainRoot(p string) bool {
	dir := path.Dir(p)
	return dir == "." || strings.HasPrefix(dir, "cmd/") && strings.Count(dir, "/") == 1 || dir == "cmd"
}

func goMainImportsSDK(name string, src []byte) int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != "main" {
		return 0
	}
	hasMain := false
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
			hasMain = true
		}
	}
	if !hasMain {
		return 0
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for _, sdk := range goSDKs {
			if p == sdk || strings.HasPrefix(p, sdk+"/") {
				return fset.Position(imp.Pos()).Line
			}
		}
	}
	return 0
}

// findJSTransport looks for a transport in the entry file, or, when the
// entry is a build output that is not shipped, in the TypeScript sources.
func findJSTransport(inv *resolve.Inventory, entry string) string {
	entry = path.Clean(strings.TrimPrefix(entry, "./"))
	candidates := []string{entry}
	if _, ok := inv.File(entry); !ok {
		base := strings.TrimSuffix(path.Base(entry), path.Ext(entry))
		for _, src := range []string{"src/" + base + ".ts", "src/" + base + ".mts", "src/" + base + ".js", base + ".ts"} {
			candidates = append(candidates, src)
		}
	}
	for _, c := range candidates {
		if content, ok := inv.Read(c); ok && jsCreatesTransport(content) {
			return c
		}
	}
	return ""
}

func jsCreatesTransport(src []byte) bool {
	for _, t := range lex.Code(lex.JS(string(src))) {
		if t.Kind == lex.Ident && slices.Contains(jsTransports, t.Text) {
			return true
		}
	}
	return false
}

// pythonMainRunsServer finds `if __name__ == "__main__":` at the top level
// followed by a .run( call in a module that builds a FastMCP or Server.
func pythonMainRunsServer(src []byte) int {
	toks := lex.Code(lex.Python(string(src)))
	builds := false
	for _, t := range toks {
		if t.Kind == lex.Ident && (t.Text == "FastMCP" || t.Text == "Server" || t.Text == "stdio_server" || t.Text == "MCPServer") {
			builds = true
		}
	}
	if !builds {
		return 0
	}
	for i := 0; i+4 < len(toks); i++ {
		t := toks[i]
		if !(t.Kind == lex.Ident && t.Text == "if" && t.LineStart && t.Col == 1) {
			continue
		}
		a, op, b := toks[i+1], toks[i+2], toks[i+3]
		isName := func(x lex.Token) bool { return x.Kind == lex.Ident && x.Text == "__name__" }
		isMain := func(x lex.Token) bool { return x.Kind == lex.String && lex.Unquote(x.Text) == "__main__" }
		if op.Text != "==" || !(isName(a) && isMain(b) || isMain(a) && isName(b)) {
			continue
		}
		for j := i + 4; j+1 < len(toks); j++ {
			if toks[j].LineStart && toks[j].Col == 1 && j > i+5 {
				break // the block ended
			}
			if toks[j].Text == "." && toks[j+1].Kind == lex.Ident && (toks[j+1].Text == "run" || toks[j+1].Text == "run_stdio_async" || toks[j+1].Text == "run_sse_async") {
				return int(t.Line)
			}
			if toks[j].Kind == lex.Ident && (toks[j].Text == "run" || toks[j].Text == "main") && j+1 < len(toks) && toks[j+1].Text == "(" {
				return int(t.Line)
			}
		}
	}
	return 0
}
