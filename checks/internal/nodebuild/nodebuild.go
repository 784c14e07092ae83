// Package nodebuild recognises the builds a Node package declares, so that
// a source checkout's entry under a build's output directory is not taken
// for a missing file.
package nodebuild

import (
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Output is a directory or file a declared build produces.
type Output struct {
	Tool string // tsc, esbuild, tsup, rollup, vite, bun
	Path string // cleaned, relative
	Dir  bool
	// SourceBeside means the build writes next to its sources (tsc without
	// outDir): an entry x.js is produced from x.ts.
	SourceBeside bool
}

var (
	buildScripts = []string{"build", "prepare", "prepack", "prepublishOnly", "prepublish", "compile"}
	runRe        = lex.Lazy(`(?:npm run|pnpm(?: run)?|yarn(?: run)?|bun run)\s+([\w:.-]+)`)
	flagRe       = func(names string) *lex.Pattern {
		return lex.Lazy(`(?:^|\s)(?:` + names + `)(?:=|\s+)["']?([^\s"'&;|]+)`)
	}
	esbuildDir  = flagRe(`--outdir`)
	esbuildFile = flagRe(`--outfile`)
	tsupDir     = flagRe(`--out-dir|-d`)
	rollupFile  = flagRe(`-o|--file`)
	rollupDir   = flagRe(`-d|--dir`)
	viteDir     = flagRe(`--outDir`)
	tscProject  = flagRe(`-p|--project`)
)

// Outputs lists the outputs of the builds that package.json scripts reach
// (build, prepare and friends, and one level of 'npm run X').
func Outputs(inv *resolve.Inventory, pkg *manifest.PackageJSON) []Output {
	var cmds []string
	seen := map[string]bool{}
	var visit func(name string, depth int)
	visit = func(name string, depth int) {
		sc, ok := pkg.Scripts[name]
		if !ok || seen[name] || depth > 3 {
			return
		}
		seen[name] = true
		cmds = append(cmds, sc.Value)
		for _, m := range runRe.Re().FindAllStringSubmatch(sc.Value, -1) {
			visit(m[1], depth+1)
		}
	}
	for _, s := range buildScripts {
		visit(s, 0)
	}
	var out []Output
	add := func(tool, p string, dir bool) {
		out = append(out, Output{Tool: tool, Path: path.Clean(strings.TrimPrefix(p, "./")), Dir: dir})
	}
	for _, c := range cmds {
		for _, part := range splitCommands(c) {
			fields := strings.Fields(part)
			if len(fields) == 0 {
				continue
			}
			tool := path.Base(fields[0])
			if tool == "npx" || tool == "pnpx" || tool == "bunx" {
				if len(fields) < 2 {
					continue
				}
				tool = path.Base(fields[1])
			}
			switch {
			case tool == "tsc":
				project := "tsconfig.json"
				if m := tscProject.Re().FindStringSubmatch(part); m != nil {
					project = m[1]
					if !strings.HasSuffix(project, ".json") {
						project = path.Join(project, "tsconfig.json")
					}
				}
				if dir, ok := tsconfigOutDir(inv, path.Clean(project)); ok {
					add("tsc", dir, true)
				} else {
					out = append(out, Output{Tool: "tsc", SourceBeside: true})
				}
			case tool == "esbuild":
				if m := esbuildDir.Re().FindStringSubmatch(part); m != nil {
					add("esbuild", m[1], true)
				}
				if m := esbuildFile.Re().FindStringSubmatch(part); m != nil {
					add("esbuild", m[1], false)
				}
			case tool == "tsup":
				if m := tsupDir.Re().FindStringSubmatch(part); m != nil {
					add("tsup", m[1], true)
				} else {
					add("tsup", "dist", true)
				}
			case tool == "rollup":
				switch m1, m2 := rollupFile.Re().FindStringSubmatch(part), rollupDir.Re().FindStringSubmatch(part); {
				case m1 != nil:
					add("rollup", m1[1], false)
				case m2 != nil:
					add("rollup", m2[1], true)
				default:
					add("rollup", "dist", true)
				}
			case tool == "vite":
				if m := viteDir.Re().FindStringSubmatch(part); m != nil {
					add("vite", m[1], true)
				} else {
					add("vite", "dist", true)
				}
			case tool == "bun" && len(fields) > 1 && fields[1] == "build":
				if m := esbuildDir.Re().FindStringSubmatch(part); m != nil {
					add("bun build", m[1], true)
				}
				if m := esbuildFile.Re().FindStringSubmatch(part); m != nil {
					add("bun build", m[1], false)
				}
			}
		}
	}
	return out
}

var commandSep = lex.Lazy(`&&|\|\||;|\|`)

func splitCommands(s string) []string { return commandSep.Re().Split(s, -1) }

// Produces reports which build, if any, produces p.
func Produces(inv *resolve.Inventory, outs []Output, p string) (string, bool) {
	p = path.Clean(strings.TrimPrefix(p, "./"))
	for _, o := range outs {
		switch {
		case o.SourceBeside:
			base := strings.TrimSuffix(p, path.Ext(p))
			for _, ext := range []string{".ts", ".mts", ".cts", ".tsx"} {
				if _, ok := inv.File(base + ext); ok {
					return o.Tool, true
				}
			}
		case o.Dir && (p == o.Path || strings.HasPrefix(p, o.Path+"/")):
			return o.Tool, true
		case !o.Dir && p == o.Path:
			return o.Tool, true
		}
	}
	return "", false
}

// tsconfigOutDir reads compilerOptions.outDir from a tsconfig, which may
// hold comments and trailing commas (JSONC).
func tsconfigOutDir(inv *resolve.Inventory, p string) (string, bool) {
	data, ok := inv.Read(p)
	if !ok {
		return "", false
	}
	doc, err := manifest.ParseJSON(jsonc(data))
	if err != nil {
		return "", false
	}
	dir, ok := doc.Root.Path("compilerOptions.outDir").String()
	if !ok || dir == "" {
		return "", false
	}
	return path.Join(path.Dir(p), dir), true
}

// jsonc drops comments and trailing commas, keeping line structure.
func jsonc(data []byte) []byte {
	toks := lex.JS(string(data))
	var b strings.Builder
	for i, t := range toks {
		if t.Kind == lex.Comment {
			continue
		}
		if t.Text == "," {
			j := i + 1
			for j < len(toks) && toks[j].Kind == lex.Comment {
				j++
			}
			if j < len(toks) && (toks[j].Text == "}" || toks[j].Text == "]") {
				continue
			}
		}
		b.WriteString(t.Text)
		b.WriteByte(' ')
	}
	return []byte(b.String())
}
