package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/golang"
	"github.com/metahub-ai/attest/checks/facts/js"
	"github.com/metahub-ai/attest/checks/facts/powershell"
	"github.com/metahub-ai/attest/checks/facts/prose"
	"github.com/metahub-ai/attest/checks/facts/python"
	"github.com/metahub-ai/attest/checks/facts/shell"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Version is the builder's version: it changes when what the builder
// feeds the producers changes.
const Version = "1.0.0"

type setKey struct{}

// Of returns the model of a subject, built once per subject.
func Of(s *resolve.Subject) *facts.Set {
	return s.Memo(setKey{}, func() any { return build(s) }).(*facts.Set)
}

// Producers names the builder and the producers with their versions.
func Producers() []string {
	return []string{"analysis@" + Version, "prose@" + prose.Version, "markdown@" + prose.Version, "python@" + python.Version,
		"shell@" + shell.Version, "js@" + js.Version, "go@" + golang.Version, "powershell@" + powershell.Version}
}

// ModelVersion is the version of the model a check that uses it reads: the
// producers' versions and the vocabulary's digest, hashed.
var ModelVersion = sync.OnceValue(func() string {
	h := sha256.New()
	for _, p := range Producers() {
		fmt.Fprintf(h, "%s\n", p)
	}
	fmt.Fprintf(h, "vocab %s\n", vocab.Digest())
	return "model@sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
})

// docExt are the document files the prose producer reads.
func isDoc(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".mdc", ".txt", ".rst":
		return true
	}
	base := strings.ToLower(path.Base(p))
	return base == ".cursorrules" || base == "readme" || base == ".windsurfrules" || base == ".clinerules"
}

// codeLang names the producer language of a code file ("" for none).
func codeLang(f *resolve.File, content []byte) string {
	switch strings.ToLower(path.Ext(f.Path)) {
	case ".ps1", ".psm1", ".psd1":
		return "powershell"
	}
	switch files.Language(f.Path, content) {
	case "js":
		return "js"
	case "python":
		return "python"
	case "go":
		return "go"
	case "shell":
		return "shell"
	}
	return ""
}

// textOf is a file's content as text. A file an interpreter or a model
// would read is read even with a stray NUL or invalid byte (either is
// replaced), since the interpreter runs it anyway; only content that is
// mostly not text is refused.
func textOf(f *resolve.File) (string, bool) {
	if !f.Scanned {
		return "", false
	}
	b := f.Content
	if utf8.Valid(b) && !slices.Contains(b, 0) {
		return string(b), true
	}
	bad := 0
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w <= 1 || r == 0 || r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' {
			bad++
		}
		i += w
	}
	if len(b) > 0 && bad*10 > len(b) {
		return "", false
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		switch {
		case r == 0:
			sb.WriteByte(' ')
		case r == utf8.RuneError && w <= 1:
			sb.WriteRune(utf8.RuneError)
		default:
			sb.Write(b[i : i+w])
		}
		i += w
	}
	return sb.String(), true
}

func inTests(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "__tests__", "spec", "specs", "testdata", "fixtures", "e2e":
			return true
		}
	}
	b := strings.ToLower(path.Base(p))
	return strings.HasPrefix(b, "test_") || strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.HasSuffix(b, "_test.go") || strings.HasSuffix(b, "_test.py")
}

type program struct {
	units []*flow.Unit
	ctx   map[*flow.Unit]facts.Context
	via   map[*flow.Unit][]string
}

func (p *program) add(u *flow.Unit, ctx facts.Context, via []string) {
	if u == nil {
		return
	}
	if p.ctx == nil {
		p.ctx, p.via = map[*flow.Unit]facts.Context{}, map[*flow.Unit][]string{}
	}
	p.units = append(p.units, u)
	p.ctx[u] = ctx
	p.via[u] = via
}

func (p *program) run() *facts.Set { return run(p.units, p.ctx, p.via) }

func build(s *resolve.Subject) *facts.Set {
	set := &facts.Set{Producers: Producers()}
	code := &program{}
	var docs []docText
	imaged := Imaged(s)
	for f := range files.Scan(s) {
		content, ok := textOf(f)
		if !ok {
			continue
		}
		var ctx facts.Context
		if inTests(f.Path) {
			ctx |= facts.InTest
		}
		if imaged[f.Path] && !namedToModel(s, f.Path) {
			// a script the artifact's Dockerfile copies into its image and
			// no instruction tells the model to run: it runs in the image
			ctx |= facts.InContainer
		}
		if lang := codeLang(f, f.Content); lang != "" {
			if lower := lowerers[lang]; lower != nil {
				code.add(lower(f.Path, content, 0), ctx, nil)
			}
			continue
		}
		if isDoc(f.Path) {
			docs = append(docs, docText{path: f.Path, text: content})
		}
	}
	set.Merge(code.run())
	var hosts, repos, titles []string
	for _, d := range docs {
		var ctx facts.Context
		if files.ModelRead(s, d.path) {
			ctx = facts.ModelReads
		}
		r := prose.Lower(d.path, d.text, 0, prose.Options{Lowerers: lowerers, Ctx: ctx, Ships: ships(s, d.path)})
		set.Merge(r.Set)
		p := docProgram(r)
		tells(s, r.Tells, p)
		set.Merge(p.run())
		hosts = append(hosts, r.Hosts...)
		repos = append(repos, r.Repos...)
		if r.Title != "" && mainDoc(s, d.path) {
			titles = append(titles, r.Title)
		}
	}
	if a := s.Manifests.AgentJSON; a != nil && a.V != nil && a.V.Instructions != nil {
		r := prose.Lower(a.Path, a.V.Instructions.Value, a.V.Instructions.Pos.Line-1, prose.Options{Plain: true, Via: []string{"agent.json instructions"}, Lowerers: lowerers, Ctx: facts.ModelReads})
		set.Merge(r.Set)
		set.Merge(docProgram(r).run())
	}
	returned(set)
	manifests(s, set)
	mcpStrings(s, set)
	set.Intent = intent(s, hosts, repos, titles)
	set.Sort()
	return set
}

type docText struct{ path, text string }

// runWords start a command that runs a script named after them.
var runWords = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "source": true, ".": true, "run": true,
	"execute": true, "exec": true, "python": true, "python3": true, "node": true, "pwsh": true, "powershell": true, "sudo": true}

// ships reports whether a path a document names, relative to the
// document or to the artifact's root, is one of the artifact's files.
func ships(s *resolve.Subject, doc string) func(string) bool {
	return func(rel string) bool {
		rel = strings.TrimPrefix(rel, "./")
		for _, p := range []string{path.Join(path.Dir(doc), rel), path.Clean(rel)} {
			if _, ok := s.Inventory.File(p); ok {
				return true
			}
		}
		return false
	}
}

// namedToModel reports whether a document the model reads tells it to run
// the file: its name after sh, bash, source, python, "run" and the like,
// or as ./NAME.
func namedToModel(s *resolve.Subject, p string) bool {
	base := []byte(path.Base(p))
	for f := range files.Scan(s) {
		if !isDoc(f.Path) || !files.ModelRead(s, f.Path) || !bytes.Contains(f.Content, base) {
			continue
		}
		for _, ln := range bytes.Split(f.Content, []byte("\n")) {
			i := bytes.Index(ln, base)
			if i < 0 {
				continue
			}
			j := i // the start of the path the name ends
			for j > 0 && !bytes.ContainsAny(ln[j-1:j], " \t`'\"(") {
				j--
			}
			words := strings.Fields(string(ln[:j]))
			prev := ""
			if len(words) > 0 {
				prev = strings.ToLower(strings.Trim(words[len(words)-1], "`*'\""))
			}
			if runWords[prev] || bytes.HasPrefix(ln[j:], []byte("./")) {
				return true
			}
		}
	}
	return false
}

// docProgram runs a document's code: the blocks of one language and one
// context run as one program, as a model working through the document
// runs them in turn (a variable set in one block is read in the next).
func docProgram(r *prose.Result) *program {
	p := &program{}
	type key struct {
		lang string
		ctx  facts.Context
	}
	merged := map[key]*flow.Unit{}
	for _, u := range r.Units {
		k := key{u.Lang, r.Ctx[u]}
		m := merged[k]
		if m == nil {
			m = &flow.Unit{Path: u.Path, Lang: u.Lang, Top: &flow.Func{}}
			merged[k] = m
			via := []string{"code in the document"}
			if len(r.Via[u]) > 0 && len(r.Units) == 1 {
				via = r.Via[u]
			}
			p.add(m, r.Ctx[u], via)
		}
		m.Top.Body = append(m.Top.Body, u.Top.Body...)
		m.Imports = append(m.Imports, u.Imports...)
		m.Unresolved = append(m.Unresolved, u.Unresolved...)
	}
	return p
}

// intent is what the artifact says it is and does.
func intent(s *resolve.Subject, hosts, repos, titles []string) facts.Intent {
	var in facts.Intent
	if s.Name != "" {
		in.Purpose = append(in.Purpose, s.Name)
	}
	in.Purpose = append(in.Purpose, titles...)
	if m := s.Manifests; m != nil {
		if m.Skill != nil && m.Skill.V != nil {
			in.Declared = facts.Span{Path: m.Skill.Path, Line: 1, Medium: facts.Manifest}
		}
		if m.Package != nil && m.Package.V != nil {
			for _, u := range []*manifest.StringField{m.Package.V.Homepage, m.Package.V.Repository} {
				if u != nil && u.Value != "" {
					hosts = append(hosts, hostOf(u.Value))
					repos = append(repos, repoOf(u.Value)...)
				}
			}
		}
	}
	slices.Sort(hosts)
	in.Hosts = slices.Compact(hosts)
	slices.Sort(repos)
	in.Repos = slices.Compact(repos)
	return in
}

// mainDoc reports the document that introduces the artifact: the skill's
// SKILL.md, or the README at its root.
func mainDoc(s *resolve.Subject, p string) bool {
	if m := s.Manifests; m != nil && m.Skill != nil && m.Skill.Path == p {
		return true
	}
	return strings.EqualFold(p, "README.md") || strings.EqualFold(p, "SKILL.md")
}

// repoOf is a forge repository a manifest's URL names, as
// "github.com/owner/name".
func repoOf(u string) []string {
	u = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(u, "git+"), "https://"), "http://")
	parts := strings.Split(strings.TrimSuffix(u, ".git"), "/")
	if len(parts) < 3 {
		return nil
	}
	switch h := strings.ToLower(parts[0]); h {
	case "github.com", "gitlab.com", "codeberg.org", "bitbucket.org":
		return []string{strings.ToLower(h + "/" + parts[1] + "/" + parts[2])}
	}
	return nil
}

func hostOf(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	h, _, _ := strings.Cut(u, "/")
	return strings.ToLower(h)
}

// tells follows a document telling the model to run a command defined in
// another file of the artifact ("run the setup command from
// config.json"): the command is found under its key and run as the
// document's own.
func tells(s *resolve.Subject, ts []prose.Tell, p *program) {
	for _, t := range ts {
		name := path.Clean(path.Join(path.Dir(t.At.Path), t.File))
		data, ok := s.Inventory.Read(name)
		if !ok {
			if data, ok = s.Inventory.Read(path.Clean(t.File)); !ok {
				continue
			}
			name = path.Clean(t.File)
		}
		switch strings.ToLower(path.Ext(name)) {
		case ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf":
			for _, cmd := range lookupKey(data, t.Key) {
				p.add(lowerers["shell"](name, cmd, 0), t.Ctx|facts.InDoc, []string{fmt.Sprintf("%s of %s, run as %s:%d says", t.Key, name, t.At.Path, t.At.Line)})
			}
		}
	}
}

// lookupKey finds the string values under a key, at any depth, of a JSON
// or YAML document (bounded).
func lookupKey(data []byte, key string) []string {
	if len(data) > prose.MaxStructured || key == "" {
		return nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil
	}
	var out []string
	n := 0
	var walk func(nd *yaml.Node, depth int)
	walk = func(nd *yaml.Node, depth int) {
		if nd == nil || depth > 32 || n > 5000 || len(out) > 16 {
			return
		}
		n++
		if nd.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(nd.Content); i += 2 {
				k, v := nd.Content[i], nd.Content[i+1]
				if strings.EqualFold(k.Value, key) {
					switch v.Kind {
					case yaml.ScalarNode:
						out = append(out, v.Value)
					case yaml.SequenceNode:
						for _, it := range v.Content {
							if it.Kind == yaml.ScalarNode {
								out = append(out, it.Value)
							}
						}
					case yaml.MappingNode:
						for j := 0; j+1 < len(v.Content); j += 2 {
							if c := strings.ToLower(v.Content[j].Value); c == "command" || c == "cmd" || c == "run" || c == "script" {
								out = append(out, v.Content[j+1].Value)
							}
						}
					}
				}
				walk(v, depth+1)
			}
			return
		}
		for _, c := range nd.Content {
			walk(c, depth+1)
		}
	}
	walk(&root, 0)
	return out
}
