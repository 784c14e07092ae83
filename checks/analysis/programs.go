package analysis

import (
	"bytes"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Program is one shell program found in an artifact.
type Program struct {
	Path   string // file holding it
	Line   int    // line of the file where the program starts, minus one
	Source []byte
	Where  string // "script", "package.json scripts.postinstall", "Dockerfile RUN", ...
}

// BuildTime names the program kinds that run when the artifact is built
// or tested, not when it is used.
var BuildTime = map[string]bool{"Dockerfile RUN": true, "CI run step": true, "CI script": true, "Makefile recipe": true}

// IsShellFile reports whether a file is a shell script, by extension or
// shebang.
func IsShellFile(p string, content []byte) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return true
	case "":
		first, _, _ := bytes.Cut(content, []byte{'\n'})
		if !bytes.HasPrefix(first, []byte("#!")) {
			return false
		}
		for _, sh := range []string{"/sh", "/bash", "/zsh", "/ksh", "/dash", "env sh", "env bash", "env zsh"} {
			if bytes.Contains(first, []byte(sh)) {
				return true
			}
		}
	}
	return false
}

// Programs lists every shell program the artifact ships: shell scripts,
// package.json scripts, Dockerfile RUN instructions, Makefile recipes and
// CI `run:` steps.
func Programs(s *resolve.Subject) []Program {
	var out []Program
	for f := range files.Scan(s) {
		if !f.Scanned {
			continue
		}
		base := path.Base(f.Path)
		switch {
		case IsShellFile(f.Path, f.Content):
			out = append(out, Program{Path: f.Path, Source: f.Content, Where: "script"})
		case base == "Dockerfile" || strings.HasSuffix(base, ".Dockerfile") || strings.HasPrefix(base, "Dockerfile."):
			out = append(out, dockerRuns(f.Path, f.Content)...)
		case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk"):
			out = append(out, makeRecipes(f.Path, f.Content)...)
		case strings.HasPrefix(f.Path, ".github/workflows/") && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")),
			base == ".gitlab-ci.yml":
			out = append(out, ciRuns(f.Path, f.Content)...)
		}
	}
	if p := s.Manifests.Package; p.Ok() {
		for _, name := range p.V.ScriptNames() {
			sc := p.V.Scripts[name]
			out = append(out, Program{Path: p.Path, Line: sc.Pos.Line - 1, Source: []byte(sc.Value), Where: "package.json scripts." + name})
		}
	}
	return out
}

// dockerRuns extracts RUN instructions (shell form), joining continuations.
func dockerRuns(p string, src []byte) []Program {
	var out []Program
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if len(t) < 4 || !strings.EqualFold(t[:4], "RUN ") {
			continue
		}
		start := i
		body := t[4:]
		for strings.HasSuffix(strings.TrimSpace(body), `\`) && i+1 < len(lines) {
			i++
			body = strings.TrimSuffix(strings.TrimSpace(body), `\`) + "\n" + lines[i]
		}
		if strings.HasPrefix(strings.TrimSpace(body), "[") {
			continue // exec form: no shell
		}
		out = append(out, Program{Path: p, Line: start, Source: []byte(body), Where: "Dockerfile RUN"})
	}
	return out
}

// dockerCopies lists the artifact paths a Dockerfile's COPY and ADD
// instructions put into its image, read from the Dockerfile's directory
// as the build context (a --from stage copies from another image and is
// left out).
func dockerCopies(p string, src []byte) []string {
	var out []string
	dir := path.Dir(p)
	for _, ln := range strings.Split(string(src), "\n") {
		f := strings.Fields(ln)
		if len(f) < 3 || !strings.EqualFold(f[0], "COPY") && !strings.EqualFold(f[0], "ADD") {
			continue
		}
		args, from := f[1:], false
		for len(args) > 0 && strings.HasPrefix(args[0], "--") {
			from = from || strings.HasPrefix(args[0], "--from")
			args = args[1:]
		}
		if from || len(args) < 2 {
			continue
		}
		for _, a := range args[:len(args)-1] {
			a = strings.Trim(a, `[]",`)
			if a == "" || a == "." || a == "./" || a == "*" || strings.Contains(a, "://") {
				continue // the whole context is the artifact itself, not a file put in an image
			}
			out = append(out, path.Clean(path.Join(dir, a)))
		}
	}
	return out
}

// Imaged reports the files a Dockerfile of the artifact copies into its
// image (a file, or one under a copied directory).
func Imaged(s *resolve.Subject) map[string]bool {
	var srcs []string
	for f := range files.Scan(s) {
		base := path.Base(f.Path)
		if f.Scanned && (base == "Dockerfile" || strings.HasSuffix(base, ".Dockerfile") || strings.HasPrefix(base, "Dockerfile.")) {
			srcs = append(srcs, dockerCopies(f.Path, f.Content)...)
		}
	}
	if len(srcs) == 0 {
		return nil
	}
	out := map[string]bool{}
	for i := range s.Inventory.Files {
		p := s.Inventory.Files[i].Path
		for _, c := range srcs {
			if p == c || strings.HasPrefix(p, c+"/") {
				out[p] = true
			}
		}
	}
	return out
}

// makeRecipes extracts recipe lines (tab-indented), without their @ - +
// prefixes; each line is its own shell program, as make runs them.
func makeRecipes(p string, src []byte) []Program {
	var out []Program
	for i, l := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(l, "\t") {
			continue
		}
		body := strings.TrimLeft(strings.TrimSpace(l), "@-+")
		body = strings.ReplaceAll(body, "$$", "$")
		if body != "" {
			out = append(out, Program{Path: p, Line: i, Source: []byte(body), Where: "Makefile recipe"})
		}
	}
	return out
}

// ciRuns extracts `run:` steps and GitLab `script:` lines from CI YAML.
func ciRuns(p string, src []byte) []Program {
	root, err := manifest.ParseYAML(src)
	if err != nil || root == nil {
		return nil
	}
	var out []Program
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > 32 {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				switch {
				case (k.Value == "run") && v.Kind == yaml.ScalarNode:
					line := v.Line - 1
					if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
						line = v.Line // a block scalar starts on the next line
					}
					out = append(out, Program{Path: p, Line: line, Source: []byte(v.Value), Where: "CI run step"})
				case (k.Value == "script" || k.Value == "before_script" || k.Value == "after_script") && v.Kind == yaml.SequenceNode:
					for _, it := range v.Content {
						if it.Kind == yaml.ScalarNode {
							out = append(out, Program{Path: p, Line: it.Line - 1, Source: []byte(it.Value), Where: "CI script"})
						}
					}
				default:
					walk(v, depth+1)
				}
			}
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return out
}
