package noinstallscripts

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-install-scripts.
var Check = &checks.Check{
	ID:          "no-install-scripts",
	Version:     "2.2.0",
	Title:       "Nothing runs at install time",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Lifecycle scripts npm runs on install.
var lifecycle = []string{"preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare", "prepublish"}

var (
	builds = map[string]bool{"tsc": true, "tsup": true, "esbuild": true, "rollup": true, "vite": true, "webpack": true, "babel": true, "swc": true, "husky": true, "patch-package": true, "ncc": true, "parcel": true, "unbuild": true,
		// local file steps of a build; the model still reads them
		"shx": true, "cp": true, "mkdir": true, "chmod": true, "rm": true, "rimraf": true, "mv": true, "echo": true,
		"copyfiles": true, "cpy": true, "ncp": true, "cross-env": true, "del-cli": true}
	runScript = lex.Lazy(`^(?:npm|pnpm|yarn|bun)(?:\s+run)?\s+([\w:.-]+)$`)
	// a .pth line that starts with import is executed at every
	// interpreter start; any other line is a path entry
	pthExec = lex.Lazy(`(?m)^\s*import\s`)
)

// maxDepth bounds how far script indirections are followed.
const maxDepth = 4

// installTime is what runs at install: the lifecycle scripts, the
// package.json scripts they run, and the shipped files those run.
type installTime struct {
	pkg     string
	scripts map[string]bool // package.json script names
	files   map[string]bool
}

func (t *installTime) in(at facts.Span, ctx facts.Context) bool {
	if ctx.Has(facts.InstallTime) || t.files[at.Path] {
		return true
	}
	if at.Path != t.pkg || len(at.Via) == 0 {
		return false
	}
	name, ok := strings.CutPrefix(at.Via[0], "package.json scripts.")
	return ok && t.scripts[name]
}

// file adds a shipped file run at install, and what it runs in turn.
func (t *installTime) file(inv *resolve.Inventory, p string, depth int) {
	if t.files[p] || depth > maxDepth {
		return
	}
	t.files[p] = true
	if data, ok := inv.Read(p); ok {
		found, _ := hooks.Scripts(inv, string(data))
		for _, f := range found {
			t.file(inv, f, depth+1)
		}
	}
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	inv := s.Inventory
	set := in.Facts()
	var fails, warns []checks.Evidence
	found := 0
	t := &installTime{scripts: map[string]bool{}, files: map[string]bool{}}
	if p := s.Manifests.Package; p.Ok() {
		t.pkg = p.Path
		for _, name := range lifecycle {
			sc, ok := p.V.Scripts[name]
			if !ok {
				continue
			}
			found++
			warns = append(warns, follow(s, p.V, p.Path, name, name, sc, 0, t)...)
		}
	}
	if _, ok := inv.File("binding.gyp"); ok {
		found++
		warns = append(warns, checks.At("binding.gyp", 0, 0, "node-gyp rebuild runs a native build at install time"))
	}
	for _, f := range inv.Files {
		switch {
		case f.Path == "setup.py":
			found++
			t.file(inv, f.Path, 0)
			if data, ok := inv.Read(f.Path); ok && strings.Contains(string(data), "cmdclass") {
				warns = append(warns, checks.At(f.Path, lineOf(data, strings.Index(string(data), "cmdclass")), 0, "setup.py runs custom install commands"))
			}
		case strings.HasSuffix(f.Path, ".pth"):
			found++
			data, _ := inv.Read(f.Path)
			if loc := pthExec.Re().FindIndex(data); loc != nil {
				fails = append(fails, checks.At(f.Path, lineOf(data, loc[0]), 0, ".pth file executes code at every interpreter start"))
			}
		case f.Path == "build.rs":
			found++
			warns = append(warns, checks.At(f.Path, 0, 0, "Cargo build script runs at build time"))
		}
	}
	if pp := s.Manifests.Pyproject; pp.Ok() {
		if bp := pp.V.Doc.Get("build-system.backend-path"); bp != nil {
			found++
			warns = append(warns, checks.At(pp.Path, pp.V.Doc.Pos("build-system.backend-path").Line, 0, "an in-tree build backend runs at install time"))
		}
	}
	// setup.py runs on every source install: reaching the network or
	// running a command there is the installer doing what the user did
	// not ask for.
	for _, sk := range set.Sinks {
		if sk.At.Path != "setup.py" || !query.Stands(sk.Ctx) {
			continue
		}
		switch sk.Kind {
		case facts.NetSend, facts.NetConnect, facts.DNS, facts.ExecShell, facts.ExecCode:
			fails = append(fails, query.SinkEvidence(sk, "setup.py reaches the network or runs commands at install time: "+query.Describe(sk)))
		}
	}
	f, w := shell.Judge(set, shell.Scope{In: t.in, Spreads: true})
	for i := range f {
		f[i].Message = "at install time: " + f[i].Message
	}
	for i := range w {
		w[i].Message = "at install time: " + w[i].Message
	}
	fails, warns = append(fails, f...), append(warns, w...)
	if found == 0 && len(fails) == 0 && len(warns) == 0 {
		return checks.NotApplicable("nothing runs at install time"), nil
	}
	return shell.Outcome(fails, warns, fmt.Sprintf("%s, recognised builds only", checks.Plural(found, "install-time step"))), nil
}

// follow walks one install-time script: the package.json scripts it runs
// (npm run x) and the shipped files it runs join the install-time scope,
// and whatever is not a recognised build step is a warning.
func follow(s *resolve.Subject, p *manifest.PackageJSON, file, label, name string, sc manifest.StringField, depth int, t *installTime) (warns []checks.Evidence) {
	at := func(msg string) checks.Evidence {
		return checks.At(file, sc.Pos.Line, sc.Pos.Col, fmt.Sprintf("%s: %s", label, msg))
	}
	if depth > maxDepth || t.scripts[name] {
		return nil
	}
	t.scripts[name] = true
	found, _ := hooks.Scripts(s.Inventory, sc.Value)
	for _, f := range found {
		t.file(s.Inventory, f, 0)
	}
	for _, part := range splitCommands(sc.Value) {
		fields := strings.Fields(part)
		if len(fields) == 0 {
			continue
		}
		tool := path.Base(fields[0])
		if tool == "npx" && len(fields) > 1 {
			tool = path.Base(fields[1])
		}
		switch {
		case builds[tool], tool == "vite" || tool == "bun" && len(fields) > 1 && fields[1] == "build":
		case runScript.Re().MatchString(strings.TrimSpace(part)) && (p.Scripts[target(part)].Value != "" || len(fields) > 2 && fields[1] == "run"):
			name := target(part)
			if next, ok := p.Scripts[name]; ok {
				warns = append(warns, follow(s, p, file, label+" → "+name, name, next, depth+1, t)...)
			} else {
				warns = append(warns, at(fmt.Sprintf("runs the script %q, which is not defined", name)))
			}
		case tool == "sh" || tool == "bash" || strings.HasSuffix(tool, ".sh"):
			script := tool
			if !strings.HasSuffix(tool, ".sh") && len(fields) > 1 {
				script = fields[1]
			}
			script = path.Clean(strings.TrimPrefix(script, "./"))
			if _, ok := s.Inventory.File(script); ok {
				t.file(s.Inventory, script, 0)
				warns = append(warns, at("runs "+script+" at install time"))
			} else {
				warns = append(warns, at("runs "+script+", which is not shipped"))
			}
		default:
			warns = append(warns, at(fmt.Sprintf("runs %q at install time", strings.TrimSpace(part))))
		}
	}
	return warns
}

// target is the script an "npm run x" (or "npm x") names.
func target(part string) string {
	m := runScript.Re().FindStringSubmatch(strings.TrimSpace(part))
	if m == nil {
		return ""
	}
	return m[1]
}

func splitCommands(s string) []string {
	r := strings.NewReplacer("&&", "\n", "||", "\n", ";", "\n")
	return strings.Split(r.Replace(s), "\n")
}

func lineOf(data []byte, off int) int {
	return strings.Count(string(data[:off]), "\n") + 1
}
