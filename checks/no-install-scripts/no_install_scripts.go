package noinstallscripts

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-install-scripts.
var Check = &checks.Check{
	ID:          "no-install-scripts",
	Version:     "1.0.0",
	Title:       "Nothing runs at install time",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Lifecycle scripts npm runs on install.
var lifecycle = []string{"preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare", "prepublish"}

var (
	builds = map[string]bool{"tsc": true, "tsup": true, "esbuild": true, "rollup": true, "vite": true, "webpack": true, "babel": true, "swc": true, "husky": true, "patch-package": true, "ncc": true, "parcel": true, "unbuild": true,
		// local file steps of a build; the shell rules still rate them
		"shx": true, "cp": true, "mkdir": true, "chmod": true, "rm": true, "rimraf": true, "mv": true, "echo": true,
		"copyfiles": true, "cpy": true, "ncp": true, "cross-env": true, "del-cli": true}
	selfPropagate = lex.Lazy(`\b(npm|pnpm|yarn)\s+publish\b|\btwine\s+upload\b|\bgit\s+push\b|\bcargo\s+publish\b|\bgh\s+release\s+create\b`)
	runScript     = lex.Lazy(`^(?:npm|pnpm|yarn|bun)(?:\s+run)?\s+([\w:.-]+)$`)
	setupNet      = lex.Lazy(`\b(urllib\.request|urlopen|requests\.(get|post)|httpx\.|http\.client|socket\.|subprocess\.|os\.system|os\.popen|exec\(|eval\()`)
	pthExec       = lex.Lazy(`(?m)^\s*import\s`)
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	inv := s.Inventory
	var fails, warns []checks.Evidence
	found := 0
	if p := s.Manifests.Package; p.Ok() {
		for _, name := range lifecycle {
			sc, ok := p.V.Scripts[name]
			if !ok {
				continue
			}
			found++
			f, w := rateScript(s, p.V, p.Path, name, sc, 0)
			fails, warns = append(fails, f...), append(warns, w...)
		}
	}
	if _, ok := inv.File("binding.gyp"); ok {
		found++
		warns = append(warns, checks.At("binding.gyp", 0, 0, "node-gyp rebuild runs a native build at install time"))
	}
	for _, f := range inv.Files {
		switch {
		case path.Base(f.Path) == "setup.py" && !strings.Contains(f.Path, "/"):
			found++
			data, _ := inv.Read(f.Path)
			switch {
			case setupNet.Re().Match(data):
				fails = append(fails, checks.At(f.Path, lineOf(data, setupNet.Re().FindIndex(data)[0]), 0, "setup.py reaches the network or runs commands at install time"))
			case strings.Contains(string(data), "cmdclass"):
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
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Message, append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	case found > 0:
		return checks.Passed(fmt.Sprintf("%s, recognised builds only", checks.Plural(found, "install-time step"))), nil
	}
	return checks.NotApplicable("nothing runs at install time"), nil
}

// rateScript rates one install-time script, following npm run and shell
// script indirections.
func rateScript(s *resolve.Subject, p *manifest.PackageJSON, file, name string, sc manifest.StringField, depth int) (fails, warns []checks.Evidence) {
	at := func(msg string) checks.Evidence {
		return checks.At(file, sc.Pos.Line, sc.Pos.Col, fmt.Sprintf("%s: %s", name, msg))
	}
	if depth > 4 {
		return nil, nil
	}
	f, w, _ := shell.Rate([]shell.Program{{Path: file, Line: sc.Pos.Line - 1, Source: []byte(sc.Value), Where: "package.json scripts." + name}})
	fails, warns = append(fails, f...), append(warns, w...)
	if m := selfPropagate.Re().FindString(sc.Value); m != "" {
		fails = append(fails, at("publishes or pushes at install time ("+m+")"))
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
		case runScript.Re().MatchString(strings.TrimSpace(part)):
			target := runScript.Re().FindStringSubmatch(strings.TrimSpace(part))[1]
			if next, ok := p.Scripts[target]; ok {
				f, w := rateScript(s, p, file, name+" → "+target, next, depth+1)
				fails, warns = append(fails, f...), append(warns, w...)
			} else {
				warns = append(warns, at(fmt.Sprintf("runs the script %q, which is not defined", target)))
			}
		case tool == "sh" || tool == "bash" || strings.HasSuffix(tool, ".sh"):
			script := tool
			if !strings.HasSuffix(tool, ".sh") && len(fields) > 1 {
				script = fields[1]
			}
			script = path.Clean(strings.TrimPrefix(script, "./"))
			if data, ok := s.Inventory.Read(script); ok {
				f, w, _ := shell.Rate([]shell.Program{{Path: script, Source: data, Where: "install script"}})
				fails, warns = append(fails, f...), append(warns, w...)
				if len(f) == 0 {
					warns = append(warns, at("runs "+script+" at install time"))
				}
			} else {
				warns = append(warns, at("runs "+script+", which is not shipped"))
			}
		default:
			warns = append(warns, at(fmt.Sprintf("runs %q at install time", strings.TrimSpace(part))))
		}
	}
	return fails, warns
}

func splitCommands(s string) []string {
	r := strings.NewReplacer("&&", "\n", "||", "\n", ";", "\n")
	return strings.Split(r.Replace(s), "\n")
}

func lineOf(data []byte, off int) int {
	return strings.Count(string(data[:off]), "\n") + 1
}
