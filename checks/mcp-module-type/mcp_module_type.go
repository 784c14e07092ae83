package mcpmoduletype

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-module-type.
var Check = &checks.Check{
	ID:          "mcp-module-type",
	Version:     "1.0.0",
	Title:       "Node module type matches the entry",
	Axis:        checks.Integrity,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// ESM returns the line of the first top-level import or export statement,
// or 0.
func ESM(src []byte) int {
	toks := lex.Code(lex.JS(string(src)))
	for i, t := range toks {
		if t.Kind != lex.Ident || t.Depth != 0 || (t.Text != "import" && t.Text != "export") {
			continue
		}
		if i > 0 && (toks[i-1].Text == "." || toks[i-1].Text == "?.") {
			continue // obj.import
		}
		if t.Text == "import" && i+1 < len(toks) && (toks[i+1].Text == "(" || toks[i+1].Text == ".") {
			continue // dynamic import() or import.meta
		}
		return int(t.Line)
	}
	return 0
}

// CJS returns the line of the first require( or module.exports, or 0. A
// require made by createRequire is ESM-compatible and does not count.
func CJS(src []byte) int {
	toks := lex.Code(lex.JS(string(src)))
	for _, t := range toks {
		if t.Kind == lex.Ident && t.Text == "createRequire" {
			return 0
		}
	}
	for i, t := range toks {
		if t.Kind != lex.Ident || i > 0 && toks[i-1].Text == "." {
			continue
		}
		if t.Text == "require" && i+1 < len(toks) && toks[i+1].Text == "(" {
			return int(t.Line)
		}
		if t.Text == "module" && i+2 < len(toks) && toks[i+1].Text == "." && toks[i+2].Text == "exports" {
			return int(t.Line)
		}
		if t.Text == "exports" && i+1 < len(toks) && toks[i+1].Text == "." {
			return int(t.Line)
		}
	}
	return 0
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	pm := in.Subject.Manifests.Package
	if !pm.Ok() {
		return checks.NotApplicable("not a Node server"), nil
	}
	p := pm.V
	var entries []string
	for _, b := range p.Bin {
		entries = append(entries, b.Path)
	}
	if p.Main != nil {
		entries = append(entries, p.Main.Value)
	}
	if p.ExportsDot != nil {
		entries = append(entries, p.ExportsDot.Value)
	}
	typ := ""
	if p.Type != nil {
		typ = p.Type.Value
	}
	inv := in.Subject.Inventory
	checked := 0
	seen := map[string]bool{}
	for _, e := range entries {
		e = path.Clean(strings.TrimPrefix(e, "./"))
		if path.Ext(e) != ".js" || seen[e] {
			continue
		}
		seen[e] = true
		src, ok := inv.Read(e)
		if !ok {
			continue
		}
		checked++
		if typ != "module" {
			if line := ESM(src); line > 0 {
				return checks.Warning(0.5, fmt.Sprintf(`%s uses ES module syntax but package.json has no "type": "module"`, e),
					checks.At(e, line, 0, "top-level import/export"), checks.At(pm.Path, 1, 0, `"type" is `+quoteOr(typ, "absent"))), nil
			}
		} else if line := CJS(src); line > 0 {
			return checks.Warning(0.5, fmt.Sprintf(`%s uses CommonJS but package.json says "type": "module"`, e),
				checks.At(e, line, 0, "require or module.exports"), checks.At(pm.Path, p.Type.Pos.Line, 0, `"type": "module"`)), nil
		}
	}
	if checked == 0 {
		return checks.NotApplicable("no .js entry in the tree to read"), nil
	}
	return checks.Passed(fmt.Sprintf("%s match the module type", checks.Plural(checked, "entry"))), nil
}

func quoteOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return fmt.Sprintf("%q", s)
}
