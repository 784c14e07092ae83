package entryresolves

import (
	"context"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/nodebuild"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is entry-resolves.
var Check = &checks.Check{
	ID:          "entry-resolves",
	Version:     "1.0.0",
	Title:       "Entry points resolve",
	Axis:        checks.Integrity,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP, resolve.KindAgent},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

type entry struct {
	what string
	file string // manifest
	pos  manifest.Pos
	path string
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	m := s.Manifests
	inv := s.Inventory
	registry := s.Source.Type == "npm" || s.Source.Type == "pypi"
	var fails, notes []checks.Evidence
	total := 0

	if m.Package.Ok() {
		p := m.Package.V
		var entries []entry
		for _, b := range p.Bin {
			entries = append(entries, entry{"bin " + b.Name, m.Package.Path, b.Pos, b.Path})
		}
		if p.Main != nil {
			entries = append(entries, entry{"main", m.Package.Path, p.Main.Pos, p.Main.Value})
		}
		if p.ExportsDot != nil {
			entries = append(entries, entry{`exports["."]`, m.Package.Path, p.ExportsDot.Pos, p.ExportsDot.Value})
		}
		outs := nodebuild.Outputs(inv, p)
		for _, e := range entries {
			total++
			if nodeExists(inv, e.path) {
				continue
			}
			if tool, ok := nodebuild.Produces(inv, outs, e.path); ok && !registry {
				notes = append(notes, checks.At(e.file, e.pos.Line, e.pos.Col, fmt.Sprintf("%s %q is built by %s", e.what, e.path, tool)))
				continue
			}
			fails = append(fails, checks.At(e.file, e.pos.Line, e.pos.Col, fmt.Sprintf("%s %q does not exist and no declared build produces it", e.what, e.path)))
		}
	}
	if m.Pyproject.Ok() {
		for _, sc := range m.Pyproject.V.Scripts {
			total++
			if msg := pythonEntry(inv, sc.Path); msg != "" {
				fails = append(fails, checks.At(m.Pyproject.Path, sc.Pos.Line, sc.Pos.Col, fmt.Sprintf("script %q: %s", sc.Name, msg)))
			}
		}
	}
	if m.Cargo.Ok() {
		for _, b := range m.Cargo.V.Bins {
			if b.Path == "" {
				continue
			}
			total++
			if _, ok := inv.File(path.Clean(b.Path)); !ok {
				fails = append(fails, checks.At(m.Cargo.Path, b.Pos.Line, b.Pos.Col, fmt.Sprintf("bin %q path %q does not exist", b.Name, b.Path)))
			}
		}
	}
	if m.GoMod.Ok() {
		mains := goMains(inv)
		for _, dir := range slices.Sorted(maps.Keys(mains)) {
			total++
			if !mains[dir] {
				fails = append(fails, checks.At(dir, 0, 0, "package main without func main"))
			}
		}
	}
	if a := m.AgentJSON; a.Ok() && a.V.Entry != nil {
		total++
		if !inv.Exists(path.Clean(strings.TrimPrefix(a.V.Entry.Value, "./"))) {
			fails = append(fails, checks.At(a.Path, a.V.Entry.Pos.Line, a.V.Entry.Pos.Col, fmt.Sprintf("entry %q does not exist", a.V.Entry.Value)))
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Message, append(fails, notes...)...), nil
	case total == 0:
		return checks.NotApplicable("no entry points declared"), nil
	case len(notes) > 0:
		r := checks.Passed(fmt.Sprintf("%s resolved; %s produced by a declared build", checks.Plural(total, "entry point"), checks.Plural(len(notes), "entry")), notes...)
		r.Detail = "A source checkout: the built entries are not in the tree. A published package must include them."
		return r, nil
	}
	return checks.Passed(fmt.Sprintf("%s resolved", checks.Plural(total, "entry point"))), nil
}

func nodeExists(inv *resolve.Inventory, p string) bool {
	p = path.Clean(strings.TrimPrefix(p, "./"))
	if _, ok := inv.File(p); ok {
		return true
	}
	if _, ok := inv.Symlink(p); ok {
		return true
	}
	// Node resolves an extensionless main and a directory's index.
	for _, ext := range []string{".js", ".cjs", ".mjs", ".json", "/index.js"} {
		if _, ok := inv.File(p + ext); ok {
			return true
		}
	}
	return false
}

var pyIdent = lex.Lazy(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// pythonEntry resolves "pkg.mod:func" and reports what is wrong, or "".
func pythonEntry(inv *resolve.Inventory, ref string) string {
	mod, fn, _ := strings.Cut(strings.TrimSpace(ref), ":")
	fn = strings.TrimSpace(strings.Split(fn, "[")[0])
	if !pyIdent.Re().MatchString(mod) {
		return fmt.Sprintf("%q is not a module:function reference", ref)
	}
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, cand := range []string{rel + ".py", rel + "/__init__.py", "src/" + rel + ".py", "src/" + rel + "/__init__.py"} {
		src, ok := inv.Read(cand)
		if !ok {
			if _, exists := inv.File(cand); exists {
				return "" // present but too large to read: not judged missing
			}
			continue
		}
		if fn == "" {
			return ""
		}
		attr := strings.Split(fn, ".")[0]
		re := regexp.MustCompile(`(?m)^(?:async\s+)?def\s+` + regexp.QuoteMeta(attr) + `\s*\(|^` + regexp.QuoteMeta(attr) + `\s*=|^class\s+` + regexp.QuoteMeta(attr) + `\b|^from\s+\S+\s+import\s+.*\b` + regexp.QuoteMeta(attr) + `\b|^import\s+.*\b` + regexp.QuoteMeta(attr) + `\b`)
		if re.Match(src) {
			return ""
		}
		return fmt.Sprintf("%s does not define %s", cand, attr)
	}
	return fmt.Sprintf("module %s is not in the tree (looked for %s.py and %s/__init__.py, also under src/)", mod, rel, rel)
}

// goMains maps each main package directory (root and cmd/*) to whether it
// defines func main.
func goMains(inv *resolve.Inventory) map[string]bool {
	out := map[string]bool{}
	for _, f := range inv.Files {
		if !strings.HasSuffix(f.Path, ".go") || strings.HasSuffix(f.Path, "_test.go") || !f.Scanned {
			continue
		}
		dir := path.Dir(f.Path)
		if dir != "." && !(strings.HasPrefix(dir, "cmd/") && strings.Count(dir, "/") == 1) {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.SkipObjectResolution)
		if err != nil || file.Name.Name != "main" {
			continue
		}
		has := out[dir]
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
				has = true
			}
		}
		out[dir] = has
	}
	return out
}
