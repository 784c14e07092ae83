// Package reach computes which files of an artifact can run (CHECKS §4.4):
// roots are manifest entries and scripts, hook commands and the scripts
// they run, MCP launchers, Go main packages, declared test runners'
// files, and every file a model-read document names; the closure follows
// relative JS/TS imports and requires, Python imports inside the tree, Go
// package imports and the files shell scripts source or run.
//
// A file outside the closure is provably unreachable only when the closure
// holds no load it could not resolve (a computed require or import, an
// importlib call, an entry that a build produces from sources it cannot
// name): anything the graph cannot follow makes every file possibly
// reachable.
package reach

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

// Graph is the reachability of one subject's files.
type Graph struct {
	// how maps a reachable file to how it is reached: a root's reason
	// ("package.json main") or "imported by a/b.js".
	how map[string]string
	// Unresolved lists the loads the graph could not follow, as
	// "path:line what"; while it is non-empty no file is provably
	// unreachable.
	Unresolved []string
}

type graphKey struct{}

// Of computes the subject's graph once per run.
func Of(s *resolve.Subject) *Graph {
	return s.Memo(graphKey{}, func() any { return build(s) }).(*Graph)
}

// Reachable reports how p is reached, if it is.
func (g *Graph) Reachable(p string) (string, bool) {
	how, ok := g.how[p]
	return how, ok
}

// ProvablyUnreachable reports whether nothing can run or load p.
func (g *Graph) ProvablyUnreachable(p string) bool {
	_, ok := g.how[p]
	return !ok && len(g.Unresolved) == 0
}

// Describe says in a few words how p stands, for evidence.
func (g *Graph) Describe(p string) string {
	if archive, _, ok := strings.Cut(p, "!/"); ok {
		return "inside the archive " + archive
	}
	if how, ok := g.how[p]; ok {
		return "reachable: " + how
	}
	if len(g.Unresolved) > 0 {
		return "reachability unknown: " + g.Unresolved[0]
	}
	return "not reachable from any entry, script, hook, test runner or instruction"
}

// Annotate adds to each file finding how its file stands, so a reviewer
// sees whether the code can run. Severity does not change: see
// docs/DESIGN.md on the downgrade CHECKS.md permits and why it is not
// taken.
func Annotate(s *resolve.Subject, ev []checks.Evidence) []checks.Evidence {
	var g *Graph // built only for a finding
	for i := range ev {
		if ev[i].Type == checks.EvidenceFile && ev[i].Path != "" {
			if g == nil {
				g = Of(s)
			}
			ev[i].Message += " (" + g.Describe(ev[i].Path) + ")"
		}
	}
	return ev
}

// Files lists the reachable files in order.
func (g *Graph) Files() []string {
	out := make([]string, 0, len(g.how))
	for p := range g.how {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

type builder struct {
	s     *resolve.Subject
	g     *Graph
	queue []string
}

func build(s *resolve.Subject) *Graph {
	b := &builder{s: s, g: &Graph{how: map[string]string{}}}
	b.roots()
	for len(b.queue) > 0 {
		p := b.queue[0]
		b.queue = b.queue[1:]
		b.follow(p)
	}
	return b.g
}

// add marks p reachable (if it is a shipped file) and queues it.
func (b *builder) add(p, how string) bool {
	p = clean(p)
	if _, done := b.g.how[p]; done {
		return true
	}
	if _, ok := b.s.Inventory.File(p); !ok {
		return false
	}
	b.g.how[p] = how
	b.queue = append(b.queue, p)
	return true
}

func (b *builder) unresolved(at string, line int, what string) {
	b.g.Unresolved = append(b.g.Unresolved, fmt.Sprintf("%s:%d %s", at, line, what))
}

func clean(p string) string {
	p = strings.TrimPrefix(p, "${CLAUDE_PLUGIN_ROOT}/")
	p = strings.TrimPrefix(p, "$CLAUDE_PLUGIN_ROOT/")
	return strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(p, "./")), "/")
}

// entry adds a manifest entry, trying the JS extensions when it names a
// module without one; an entry that is neither shipped nor resolvable is
// a build output, and the sources it comes from are not known.
func (b *builder) entry(p, how, manifest string) {
	if b.add(p, how) || b.addModule(p, how) {
		return
	}
	b.unresolved(manifest, 0, fmt.Sprintf("%s %q is not shipped (built at install?)", how, p))
}

func (b *builder) roots() {
	m := b.s.Manifests
	if p := m.Package; p.Ok() {
		v := p.V
		if v.Main != nil {
			b.entry(v.Main.Value, "package.json main", p.Path)
		}
		if v.ExportsDot != nil {
			b.entry(v.ExportsDot.Value, `package.json exports["."]`, p.Path)
		}
		for _, bin := range v.Bin {
			b.entry(bin.Path, "package.json bin "+bin.Name, p.Path)
		}
		if len(v.Scripts) > 0 {
			b.add(p.Path, "npm runs its scripts")
		}
		for name, sc := range v.Scripts {
			b.command(sc.Value, "package.json scripts."+name)
		}
		if _, ok := v.Scripts["test"]; ok {
			b.testFiles("js", "package.json scripts.test")
		}
	}
	if p := m.Pyproject; p.Ok() {
		for _, sc := range p.V.Scripts {
			mod, _, _ := strings.Cut(sc.Path, ":")
			if !b.pyModule("", mod, "pyproject.toml script "+sc.Name) {
				b.unresolved(p.Path, sc.Pos.Line, fmt.Sprintf("script %s: module %s is not shipped", sc.Name, mod))
			}
		}
	}
	for _, name := range []string{"pytest.ini", "conftest.py", "tox.ini", "setup.cfg"} {
		if _, ok := b.s.Inventory.File(name); ok {
			b.testFiles("python", name)
		}
	}
	if p := m.Pyproject; p.Ok() && p.V.Doc != nil {
		if tool, ok := p.V.Doc.Values["tool"].(map[string]any); ok && tool["pytest"] != nil {
			b.testFiles("python", "pyproject.toml [tool.pytest]")
		}
	}
	if c := m.MCPConfig; c.Ok() {
		if len(c.V.Servers) > 0 {
			b.add(c.Path, "an MCP client configuration: its client runs each server entry")
		}
		for _, sv := range c.V.Servers {
			b.command(sv.Command+" "+strings.Join(sv.Args, " "), c.Path+" server "+sv.Name)
		}
	}
	for _, h := range hooks.All(b.s) {
		b.add(h.File, "the agent runs its hooks")
		found, _ := hooks.Scripts(b.s.Inventory, h.Command)
		for _, f := range found {
			b.add(f, h.File+" hook "+h.Event)
		}
	}
	// a stray NUL or invalid byte does not stop a file being run
	for i := range b.s.Inventory.Files {
		f := &b.s.Inventory.Files[i]
		switch {
		case strings.HasSuffix(f.Path, ".go") && f.Scanned && goPackage(f.Content) == "main":
			b.add(f.Path, "Go main package")
		case f.Path == "src/main.rs" || strings.HasPrefix(f.Path, "src/bin/") && strings.HasSuffix(f.Path, ".rs"):
			b.add(f.Path, "Cargo binary")
		case f.Scanned && bytes.HasPrefix(f.Content, []byte("#!")):
			b.add(f.Path, "a script with a shebang")
		case strings.HasSuffix(f.Path, ".py") && f.Scanned && (bytes.Contains(f.Content, []byte(`__name__ == "__main__"`)) || bytes.Contains(f.Content, []byte(`__name__ == '__main__'`))):
			b.add(f.Path, "a Python script (runs as __main__)")
		}
	}
	for d := range instruct.ModelDocs(b.s) {
		// its commands and code blocks are what the model runs
		b.add(d.Path, "the model reads it")
		b.docRefs(d)
	}
}

// command adds the files a command line runs or names.
func (b *builder) command(cmd, how string) {
	for _, tok := range strings.FieldsFunc(cmd, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '"' || r == '\'' || r == '=' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')'
	}) {
		if strings.ContainsAny(tok, "/.") && !strings.Contains(tok, "://") {
			b.add(tok, how)
		}
	}
}

// docRefs adds every shipped file a model-read document names, relative
// to the document's directory or to the root.
func (b *builder) docRefs(d instruct.Doc) {
	dir := path.Dir(d.Path)
	for _, tok := range strings.FieldsFunc(d.Body, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '`' || r == '(' || r == ')' || r == '[' || r == ']' || r == '"' || r == '\'' || r == '<' || r == '>' || r == ','
	}) {
		tok = strings.TrimRight(tok, ".:;")
		if !strings.ContainsAny(tok, "/.") || strings.Contains(tok, "://") || len(tok) > 256 {
			continue
		}
		if !b.add(path.Join(dir, tok), d.Path+" names it") {
			b.add(tok, d.Path+" names it")
		}
	}
}

// testFiles adds the files a test runner picks up by its default patterns.
func (b *builder) testFiles(lang, how string) {
	for i := range b.s.Inventory.Files {
		p := b.s.Inventory.Files[i].Path
		base := path.Base(p)
		switch lang {
		case "js":
			if files.Language(p, nil) == "js" && (strings.Contains("/"+p, "/__tests__/") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")) {
				b.add(p, how+" test file")
			}
		case "python":
			if strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py") {
				b.add(p, how+" test file")
			}
		}
	}
}

// follow adds what a reachable file loads.
func (b *builder) follow(p string) {
	f, ok := b.s.Inventory.File(p)
	if !ok || !files.IsText(f) {
		return
	}
	by := "loaded by " + p
	switch lang := files.Language(f.Path, f.Content); lang {
	case "js":
		b.jsImports(p, files.Parse(b.s, f.Path, lang, b.s.Text(f)).Toks, by)
	case "python":
		b.pyImports(p, files.Parse(b.s, f.Path, lang, b.s.Text(f)).Toks, by)
	case "shell":
		for i, line := range strings.Split(b.s.Text(f), "\n") {
			fields := strings.Fields(line)
			for j := 0; j+1 < len(fields); j++ {
				switch fields[j] {
				case "source", ".", "sh", "bash", "zsh", "python", "python3", "node", "exec":
					arg := strings.Trim(fields[j+1], `"'`)
					if strings.Contains(arg, "$") {
						b.unresolved(p, i+1, "runs a computed path "+arg)
						continue
					}
					if !b.add(path.Join(path.Dir(p), arg), by) {
						b.add(arg, by)
					}
				}
			}
		}
	case "go":
		b.goImports(f)
	}
}

// jsImports follows require("./x"), import … from "./x", import("./x") and
// export … from "./x".
func (b *builder) jsImports(p string, ts []lex.Token, by string) {
	for i, t := range ts {
		if t.Kind != lex.Ident || i > 0 && (ts[i-1].Text == "." || ts[i-1].Text == "?.") {
			continue
		}
		var spec *lex.Token
		switch {
		case t.Text == "require" || t.Text == "import" && i+1 < len(ts) && ts[i+1].Text == "(":
			if i+1 >= len(ts) || ts[i+1].Text != "(" {
				continue
			}
			if i+2 < len(ts) && ts[i+2].Kind == lex.String && (i+3 >= len(ts) || ts[i+3].Text == ")") {
				spec = &ts[i+2]
			} else {
				b.unresolved(p, int(t.Line), "computed "+t.Text+"()")
				continue
			}
		case t.Text == "import" || t.Text == "export":
			// import "x"; import a from "x"; export {a} from "x": the first
			// string before the statement ends.
			for j := i + 1; j < len(ts) && j < i+64; j++ {
				if ts[j].Text == ";" || ts[j].LineStart && ts[j].Text == "import" {
					break
				}
				if ts[j].Kind == lex.String {
					if t.Text == "import" || j > 0 && ts[j-1].Text == "from" {
						spec = &ts[j]
					}
					break
				}
			}
		}
		if spec == nil {
			continue
		}
		v, ok := fold.Unquote(*spec)
		if !ok || !strings.HasPrefix(v, ".") {
			continue // a package, not a file of the tree
		}
		b.addModule(path.Join(path.Dir(p), v), by)
	}
}

// addModule resolves a JS module path as Node and TypeScript do: the
// file, the file with an extension (a .js import of a .ts source
// included), or the directory's index.
func (b *builder) addModule(p, by string) bool {
	if b.add(p, by) {
		return true
	}
	base := strings.TrimSuffix(strings.TrimSuffix(p, ".js"), ".mjs")
	for _, ext := range []string{".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts", ".json", ".node"} {
		if b.add(base+ext, by) || b.add(p+ext, by) {
			return true
		}
	}
	for _, ext := range []string{".js", ".ts", ".mjs", ".cjs"} {
		if b.add(p+"/index"+ext, by) {
			return true
		}
	}
	return false
}

// pyImports follows import a.b and from .x import y inside the tree.
func (b *builder) pyImports(p string, ts []lex.Token, by string) {
	for i, t := range ts {
		if t.Kind != lex.Ident {
			continue
		}
		if (t.Text == "import_module" || t.Text == "__import__") && i+2 < len(ts) && ts[i+1].Text == "(" && ts[i+2].Kind != lex.String {
			b.unresolved(p, int(t.Line), "computed "+t.Text+"()")
			continue
		}
		switch {
		case t.Text == "import" && t.LineStart:
			for j := i + 1; j < len(ts) && ts[j].Line == t.Line; j++ {
				mod := dotted(ts, &j)
				b.pyModule(p, mod, by)
				for j < len(ts) && ts[j].Line == t.Line && ts[j].Text != "," {
					j++
				}
			}
		case t.Text == "from" && t.LineStart:
			j := i + 1
			dots := ""
			for j < len(ts) && (ts[j].Text == "." || ts[j].Text == "..") {
				dots += ts[j].Text
				j++
			}
			mod := dots + dotted(ts, &j)
			if j < len(ts) && ts[j].Text == "import" {
				b.pyModule(p, mod, by)
				for k := j + 1; k < len(ts) && ts[k].Line == ts[j].Line; k++ {
					if ts[k].Kind == lex.Ident && ts[k].Text != "as" {
						b.pyModule(p, strings.TrimSuffix(mod, ".")+"."+ts[k].Text, by)
					}
				}
			}
		}
	}
}

func dotted(ts []lex.Token, j *int) string {
	var parts []string
	for *j < len(ts) && ts[*j].Kind == lex.Ident {
		parts = append(parts, ts[*j].Text)
		if *j+1 < len(ts) && ts[*j+1].Text == "." {
			*j += 2
			continue
		}
		*j++
		break
	}
	return strings.Join(parts, ".")
}

// pyModule adds the file of module mod imported from file `from` ("" for
// a manifest): relative to the importing package for leading dots, else
// from the root, src/ or the importing file's directory.
func (b *builder) pyModule(from, mod, by string) bool {
	if mod == "" {
		return false
	}
	var bases []string
	if strings.HasPrefix(mod, ".") {
		dir := path.Dir(from)
		rest := strings.TrimLeft(mod, ".")
		for range len(mod) - len(rest) - 1 {
			dir = path.Dir(dir)
		}
		mod = rest
		bases = []string{dir}
	} else {
		bases = []string{".", "src"}
		if from != "" {
			bases = append(bases, path.Dir(from))
		}
	}
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, base := range bases {
		p := path.Join(base, rel)
		if rel == "" {
			p = base
		}
		if b.add(p+".py", by) || b.add(p+"/__init__.py", by) {
			return true
		}
	}
	return false
}

func goPackage(src []byte) string {
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// goImports adds the files of every package of the module that f imports,
// and the other files of f's own package.
func (b *builder) goImports(f *resolve.File) {
	dir := path.Dir(f.Path)
	by := "loaded by " + f.Path
	b.goDir(dir, by)
	gm := b.s.Manifests.GoMod
	if !gm.Ok() || gm.V.Module == nil || gm.V.Module.Value == "" {
		return
	}
	module := gm.V.Module.Value
	text := b.s.Text(f)
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		for _, q := range strings.Split(line, `"`)[1:] {
			if rest, ok := strings.CutPrefix(q, module+"/"); ok {
				b.goDir(path.Join(path.Dir(gm.Path), rest), by)
			}
			break
		}
	}
}

func (b *builder) goDir(dir, by string) {
	for i := range b.s.Inventory.Files {
		p := b.s.Inventory.Files[i].Path
		if path.Dir(p) == path.Clean(dir) && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			b.add(p, by)
		}
	}
}
