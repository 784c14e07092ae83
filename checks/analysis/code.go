// Package analysis builds the analysis model of a subject (checks/facts)
// from its files: it picks the producer for each medium, lowers every
// program into the flow engine's form, runs the engine over the programs
// of each language together (so values cross the artifact's own imports),
// and adds what documents, MCP strings and manifests say. Checks and the
// behavioral scan query the result; nothing here decides a verdict.
package analysis

import (
	"slices"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/golang"
	"github.com/metahub-ai/attest/checks/facts/js"
	"github.com/metahub-ai/attest/checks/facts/powershell"
	"github.com/metahub-ai/attest/checks/facts/python"
	"github.com/metahub-ai/attest/checks/facts/shell"
)

// Lowerers by language: each turns source into a unit of the flow form.
var lowerers = map[string]flow.Parser{
	"python":     python.Lower,
	"go":         golang.Lower,
	"js":         js.Lower,
	"powershell": powershell.Lower,
	"shell":      shell.Lower,
}

// Media of the code languages.
var media = map[string]facts.Medium{
	"python":     facts.Python,
	"shell":      facts.Shell,
	"js":         facts.JS,
	"go":         facts.Go,
	"powershell": facts.PowerShell,
}

// Code returns the facts of one program in a language: what the model
// would see if it ran src, or what a file holding it does.
func Code(lang, path, src string, lineBase int32, ctx facts.Context) *facts.Set {
	lower := lowerers[lang]
	if lower == nil {
		return &facts.Set{}
	}
	u := lower(path, src, lineBase)
	return run([]*flow.Unit{u}, map[*flow.Unit]facts.Context{u: ctx}, nil)
}

// Files returns the facts of several files of one language followed
// together, so that values cross the files' imports of each other.
func Files(lang string, files map[string]string) *facts.Set {
	lower := lowerers[lang]
	if lower == nil {
		return &facts.Set{}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	units := make([]*flow.Unit, 0, len(paths))
	for _, p := range paths {
		units = append(units, lower(p, files[p], 0))
	}
	return run(units, nil, nil)
}

func run(units []*flow.Unit, ctx map[*flow.Unit]facts.Context, via map[*flow.Unit][]string) *facts.Set {
	if len(units) == 0 {
		return &facts.Set{}
	}
	med := map[*flow.Unit]facts.Medium{}
	for _, u := range units {
		med[u] = media[u.Lang]
		if ctx[u].Has(facts.InDoc) {
			med[u] = facts.Block
		}
	}
	return flow.Run(&flow.Program{Units: units, Ctx: ctx, Medium: med, Via: via, Parsers: lowerers, Handler: handler})
}

// handler says whether a function is driven by a client with its own
// arguments: a function decorated as an MCP tool, prompt or resource.
func handler(u *flow.Unit, f *flow.Func) bool {
	for _, d := range f.Decorators {
		x := d
		if x.Op == flow.Call {
			x = x.X
		}
		if x != nil && x.Op == flow.Attr {
			switch x.S {
			case "tool", "prompt", "resource", "call_tool", "list_tools", "read_resource", "get_prompt", "command":
				return true
			}
		}
	}
	return false
}
