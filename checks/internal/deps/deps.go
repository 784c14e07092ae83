// Package deps lists the dependencies an artifact declares: manifest
// entries, the packages its launchers run, and the install commands its
// model-read documents give. The dependency checks share it.
package deps

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Ecosystems, named as OSV names them.
const (
	NPM    = "npm"
	PyPI   = "PyPI"
	Go     = "Go"
	Crates = "crates.io"
)

// Where a dependency was declared.
const (
	FromManifest    = "manifest"
	FromLauncher    = "launcher"
	FromInstruction = "instruction"
)

// Dep is one declared dependency.
type Dep struct {
	Ecosystem string
	Name      string // as written
	Spec      string // version requirement or source; "" when none
	Group     string // dependencies, devDependencies, requirements, ...
	From      string // FromManifest, FromLauncher or FromInstruction
	File      string
	Line, Col int
	// Table is a Cargo dependency written as a table (git, rev, path...).
	Table map[string]any
}

// Where is the dependency's path:line.
func (d Dep) Where() string { return fmt.Sprintf("%s:%d", d.File, d.Line) }

type key struct{}

// Declared lists the subject's dependencies once per run, in file order.
func Declared(s *resolve.Subject) []Dep {
	return s.Memo(key{}, func() any { return collect(s) }).([]Dep)
}

func collect(s *resolve.Subject) []Dep {
	m := s.Manifests
	var out []Dep
	add := func(d Dep) { out = append(out, d) }
	if p := m.Package; p.Ok() {
		for _, d := range p.V.Dependencies {
			add(Dep{Ecosystem: NPM, Name: d.Name, Spec: d.Spec, Group: d.Group, From: FromManifest, File: p.Path, Line: d.Pos.Line, Col: d.Pos.Col})
		}
	}
	if p := m.Pyproject; p.Ok() {
		for _, d := range p.V.Dependencies {
			add(Dep{Ecosystem: PyPI, Name: d.Name, Spec: d.Spec, Group: d.Group, From: FromManifest, File: p.Path, Line: d.Pos.Line, Col: d.Pos.Col})
		}
	}
	for _, r := range m.Requirements {
		if !r.Ok() {
			continue
		}
		for _, q := range r.V.Requirements {
			d := Dep{Ecosystem: PyPI, Name: q.Raw, Spec: q.Spec, Group: "requirements", From: FromManifest, File: r.Path, Line: q.Pos.Line, Col: q.Pos.Col}
			if q.URL != "" {
				d.Spec = q.URL
			}
			add(d)
		}
	}
	if c := m.Cargo; c.Ok() {
		for _, group := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
			t := c.V.Doc.Table(group)
			names := make([]string, 0, len(t))
			for k := range t {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, n := range names {
				pos := c.V.Doc.Pos(group + "." + n)
				d := Dep{Ecosystem: Crates, Name: n, Group: group, From: FromManifest, File: c.Path, Line: pos.Line, Col: pos.Col}
				switch v := t[n].(type) {
				case string:
					d.Spec = v
				case map[string]any:
					d.Table = v
					d.Spec, _ = v["version"].(string)
				}
				add(d)
			}
		}
	}
	if data, ok := s.Inventory.Read("Pipfile"); ok {
		if doc, err := manifest.ParseTOML(data); err == nil {
			for _, group := range []string{"packages", "dev-packages"} {
				t := doc.Table(group)
				names := make([]string, 0, len(t))
				for k := range t {
					names = append(names, k)
				}
				sort.Strings(names)
				for _, n := range names {
					pos := doc.Pos(group + "." + n)
					d := Dep{Ecosystem: PyPI, Name: n, Group: "Pipfile " + group, From: FromManifest, File: "Pipfile", Line: pos.Line, Col: pos.Col}
					switch v := t[n].(type) {
					case string:
						d.Spec = v
					case map[string]any:
						d.Spec, _ = v["version"].(string)
						for _, src := range []string{"git", "path", "file"} {
							if u, ok := v[src].(string); ok {
								d.Spec = u
								if src == "git" {
									if ref, ok := v["ref"].(string); ok {
										d.Spec += "@" + ref
									} else {
										d.Spec = "git+" + u
									}
								}
							}
						}
					}
					if d.Spec == "*" {
						d.Spec = ""
					}
					add(d)
				}
			}
		}
	}
	if text, ok := s.Inventory.Read("setup.py"); ok {
		for _, d := range installRequires(string(text)) {
			add(d)
		}
	}
	if g := m.GoMod; g.Ok() {
		for _, r := range g.V.Requires {
			add(Dep{Ecosystem: Go, Name: r.Name, Spec: r.Spec, Group: "require", From: FromManifest, File: g.Path, Line: r.Pos.Line, Col: r.Pos.Col})
		}
		for _, r := range g.V.File.Replace {
			spec := r.New.Path
			if r.New.Version != "" {
				spec += "@" + r.New.Version
			}
			add(Dep{Ecosystem: Go, Name: r.Old.Path, Spec: spec, Group: "replace", From: FromManifest, File: g.Path, Line: r.Syntax.Start.Line, Col: r.Syntax.Start.LineRune})
		}
	}
	for _, sv := range servers(m) {
		if d, ok := Launched(sv.Command, sv.Args); ok {
			d.File, d.Line, d.Col = sv.file, sv.Pos.Line, sv.Pos.Col
			add(d)
		}
	}
	for _, h := range m.Hooks {
		if !h.Ok() {
			continue
		}
		for _, hk := range h.V.Hooks {
			for _, d := range InCommand(hk.Command) {
				d.From, d.File, d.Line, d.Col = FromLauncher, h.Path, hk.Pos.Line, hk.Pos.Col
				add(d)
			}
		}
	}
	if sj := m.ServerJSON; sj.Ok() {
		for _, p := range sj.V.Packages {
			eco := map[string]string{"npm": NPM, "pypi": PyPI}[strings.ToLower(p.RegistryType)]
			if eco != "" {
				add(Dep{Ecosystem: eco, Name: p.Identifier, Spec: p.Version, Group: "server.json", From: FromLauncher, File: sj.Path, Line: p.Pos.Line, Col: p.Pos.Col})
			}
		}
	}
	for i := range s.Inventory.Files {
		f := &s.Inventory.Files[i]
		ext := strings.ToLower(path.Ext(f.Path))
		if (ext != ".md" && ext != ".mdc" && ext != ".txt") || !files.IsText(f) || !files.ModelRead(s, f.Path) || strings.HasPrefix(path.Base(f.Path), "requirements") {
			continue
		}
		for _, d := range instructions(s.Text(f)) {
			d.File = f.Path
			add(d)
		}
	}
	return out
}

type server struct {
	manifest.MCPServerSpec
	file string
}

func servers(m *resolve.Manifests) []server {
	var out []server
	if c := m.MCPConfig; c.Ok() {
		for _, s := range c.V.Servers {
			out = append(out, server{s, c.Path})
		}
	}
	if p := m.Plugin; p.Ok() {
		for _, s := range manifest.MCPServersFrom(p.V.Doc.Root.Get("mcpServers")) {
			out = append(out, server{s, p.Path})
		}
	}
	return out
}

// runners maps a launcher to its ecosystem and the options that take a
// value.
var runners = map[string]struct {
	eco        string
	valueFlags []string
	pkgFlags   []string // options whose value is the package
}{
	"npx":  {NPM, []string{"-c", "--call", "--cache", "--registry", "--userconfig"}, []string{"-p", "--package"}},
	"bunx": {NPM, nil, []string{"-p", "--package"}},
	"pnpx": {NPM, nil, nil},
	"uvx":  {PyPI, []string{"--python", "-p", "--with", "--index-url", "--extra-index-url", "--index", "--default-index"}, []string{"--from"}},
}

// Launched reads the package a launcher command runs: npx, bunx, pnpx,
// pnpm dlx, yarn dlx, uvx, uv tool run, pipx run.
func Launched(command string, args []string) (Dep, bool) {
	cmd := path.Base(command)
	switch {
	case (cmd == "pnpm" || cmd == "yarn") && len(args) > 0 && args[0] == "dlx":
		cmd, args = "pnpx", args[1:]
	case cmd == "uv" && len(args) > 1 && args[0] == "tool" && args[1] == "run":
		cmd, args = "uvx", args[2:]
	case cmd == "pipx" && len(args) > 0 && args[0] == "run":
		cmd, args = "uvx", args[1:]
	}
	r, ok := runners[cmd]
	if !ok {
		return Dep{}, false
	}
	spec := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case contains(r.pkgFlags, name):
			if !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			spec = val
		case contains(r.valueFlags, name):
			if !hasVal {
				i++
			}
		case strings.HasPrefix(a, "-"):
		default:
			if spec == "" {
				spec = a
			}
		}
		if spec != "" {
			break
		}
	}
	if spec == "" {
		return Dep{}, false
	}
	d := Dep{Ecosystem: r.eco, Group: cmd, From: FromLauncher}
	d.Name, d.Spec = SplitSpec(r.eco, spec)
	return d, d.Name != ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SplitSpec splits name@version (npm) or name==version / name@version
// (PyPI) into name and version requirement.
func SplitSpec(eco, spec string) (name, version string) {
	spec = strings.Trim(spec, `"'`)
	if eco == NPM {
		at := strings.LastIndex(spec, "@")
		if at > 0 {
			return spec[:at], spec[at+1:]
		}
		return spec, ""
	}
	if i := strings.IndexAny(spec, "=<>~!@[ ;"); i > 0 {
		name, version = spec[:i], strings.TrimSpace(spec[i:])
		if strings.HasPrefix(version, "[") {
			if j := strings.Index(version, "]"); j >= 0 {
				version = strings.TrimSpace(version[j+1:])
			}
		}
		return name, strings.TrimPrefix(version, "@")
	}
	return spec, ""
}

// InCommand finds the launchers inside a shell command line.
func InCommand(cmd string) []Dep {
	var out []Dep
	for _, seg := range cmdSepRe.Re().Split(cmd, -1) {
		f := strings.Fields(seg)
		for i, w := range f {
			if _, ok := runners[path.Base(w)]; ok || w == "pnpm" || w == "yarn" || w == "uv" || w == "pipx" {
				if d, ok := Launched(w, f[i+1:]); ok {
					out = append(out, d)
				}
				break
			}
		}
	}
	return out
}

var (
	installRequiresRe = lex.Lazy(`install_requires\s*=\s*\[([^\]]*)\]`)
	stringLitRe       = lex.Lazy(`"([^"\n]*)"|'([^'\n]*)'`)
)

// installRequires reads the string literals of setup.py's install_requires
// list; a list built at run time is not read.
func installRequires(text string) []Dep {
	var out []Dep
	for _, m := range installRequiresRe.Re().FindAllStringSubmatchIndex(text, -1) {
		body := text[m[2]:m[3]]
		for _, lit := range stringLitRe.Re().FindAllStringSubmatchIndex(body, -1) {
			req := body[lit[0]+1 : lit[1]-1]
			name, spec := SplitSpec(PyPI, strings.TrimSpace(req))
			if !pkgNameRe.Re().MatchString(name) {
				continue
			}
			off := m[2] + lit[0]
			out = append(out, Dep{Ecosystem: PyPI, Name: name, Spec: spec, Group: "install_requires", From: FromManifest,
				File: "setup.py", Line: 1 + strings.Count(text[:off], "\n"), Col: off - strings.LastIndexByte(text[:off], '\n')})
		}
	}
	return out
}

var cmdSepRe = lex.Lazy(`&&|\|\||[;|]`)

var installRe = lex.Lazy(`(?:^|[\s` + "`" + `$(])(pip3?\s+install|python3?\s+-m\s+pip\s+install|uv\s+pip\s+install|uv\s+add|poetry\s+add|pipx\s+install|npm\s+(?:i|install|add)|pnpm\s+(?:i|install|add)|yarn\s+(?:global\s+)?add|bun\s+(?:i|install|add))\s+([^\n` + "`" + `]*)`)

// installers holds a word of each installRe alternative (pnpm and pipx
// hold npm and pip): a line with none cannot match, and most lines of a
// document have none. TestInstallers holds the list to the pattern.
var installers = []string{"pip", "python", "uv", "poetry", "npm", "yarn", "bun"}

func mentionsInstaller(line string) bool {
	for _, w := range installers {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

var pkgNameRe = lex.Lazy(`^(?:@[a-z0-9][\w.-]*/)?[A-Za-z0-9][\w.-]*$`)

// instructions reads install commands from a document the model reads.
func instructions(text string) []Dep {
	if !strings.Contains(text, "install") && !strings.Contains(text, " add ") {
		return nil
	}
	var out []Dep
	for i, line := range strings.Split(text, "\n") {
		if !mentionsInstaller(line) {
			continue
		}
		for _, m := range installRe.Re().FindAllStringSubmatchIndex(line, -1) {
			tool := line[m[2]:m[3]]
			eco := NPM
			if strings.Contains(tool, "pip") || strings.HasPrefix(tool, "uv") || strings.HasPrefix(tool, "poetry") || strings.HasPrefix(tool, "python") {
				eco = PyPI
			}
			args := line[m[4]:m[5]]
			if j := strings.IndexAny(args, "#;&|)"); j >= 0 {
				args = args[:j]
			}
			if j := strings.Index(args, " >"); j >= 0 {
				args = args[:j] // a redirect, not a version bound
			}
			if prose(args) {
				continue
			}
			skip := false
			for _, a := range strings.Fields(args) {
				if skip {
					skip = false
					continue
				}
				if strings.HasPrefix(a, "-") {
					// -r FILE, -e PATH, -i URL, --index-url URL take a value.
					skip = a == "-r" || a == "-e" || a == "-i" || a == "-c" || a == "--index-url" || a == "--extra-index-url" || a == "--requirement" || a == "--target" || a == "-t"
					continue
				}
				name, spec := SplitSpec(eco, strings.Trim(a, `"',`))
				if !pkgNameRe.Re().MatchString(name) || strings.ContainsAny(name, "/\\") && !strings.HasPrefix(name, "@") || strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".whl") || name == "." {
					continue
				}
				out = append(out, Dep{Ecosystem: eco, Name: name, Spec: spec, Group: tool, From: FromInstruction, Line: i + 1, Col: m[4] + 1})
			}
		}
	}
	return out
}

// prose reports install words in a sentence ("a pip install failure,
// import error, service connection error"): a command never separates its
// packages with commas.
func prose(args string) bool {
	for _, a := range strings.Fields(args) {
		if strings.HasSuffix(a, ",") && !strings.ContainsAny(a, `"'=<>~^@`) {
			return true
		}
	}
	return false
}

// Locks lists the lockfiles of each ecosystem.
var Locks = map[string][]string{
	NPM:    {"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"},
	PyPI:   {"uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock", "pylock.toml"},
	Go:     {"go.sum"},
	Crates: {"Cargo.lock"},
}

// LockEcosystem is the ecosystem a lockfile name belongs to, or "".
func LockEcosystem(name string) string {
	for eco, names := range Locks {
		for _, n := range names {
			if n == name {
				return eco
			}
		}
	}
	return ""
}

// Locked reports whether the subject has a root lockfile of the ecosystem.
func Locked(s *resolve.Subject, eco string) bool {
	for _, n := range Locks[eco] {
		if _, ok := s.Inventory.File(n); ok {
			return true
		}
	}
	return false
}
