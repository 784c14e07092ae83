package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/net/publicsuffix"

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
const Version = "1.3.0"

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
func textOf(s *resolve.Subject, f *resolve.File) (string, bool) {
	if !f.Scanned {
		return "", false
	}
	b := f.Content
	if utf8.Valid(b) && !slices.Contains(b, 0) {
		return s.Text(f), true
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
	var codeBytes, docBytes int
	over := func(f *resolve.File, n *int, size, max int) bool {
		if *n+size > max {
			set.Unresolved = append(set.Unresolved, facts.Unresolved{At: facts.Span{Path: f.Path}, What: ReasonBudget})
			return true
		}
		*n += size
		return false
	}
	imaged := Imaged(s)
	for f := range files.Scan(s) {
		content, ok := textOf(s, f)
		if !ok {
			if codeLang(f, f.Content) != "" || isDoc(f.Path) {
				// a program or a document no producer could read: recorded,
				// so that no check takes its silence for a pass
				reason := ReasonNotText
				if !f.Scanned {
					reason = ReasonTooLarge
				}
				set.Unresolved = append(set.Unresolved, facts.Unresolved{At: facts.Span{Path: f.Path}, What: reason})
			}
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
			if lower := lowerers[lang]; lower != nil && !over(f, &codeBytes, len(content), maxCode) {
				code.add(lower(f.Path, content, 0), ctx, nil)
			}
			continue
		}
		if isDoc(f.Path) && !over(f, &docBytes, len(content), maxDocs) {
			docs = append(docs, docText{path: f.Path, text: content})
		}
	}
	set.Merge(code.run())
	var hosts, repos, titles []string
	var obeyed []prose.Tell
	for i, r := range lowerDocs(s, docs) {
		d := docs[i]
		set.Merge(r.Set)
		p := docProgram(r)
		tells(s, r.Tells, p)
		set.Merge(p.run())
		hosts = append(hosts, r.Hosts...)
		obeyed = append(obeyed, r.Obeys...)
		repos = append(repos, r.Repos...)
		if r.Title != "" && mainDoc(s, d.path) {
			titles = append(titles, r.Title)
		}
	}
	obey(s, set, obeyed)
	if a := s.Manifests.AgentJSON; a != nil && a.V != nil && a.V.Instructions != nil {
		r := prose.Lower(a.Path, a.V.Instructions.Value, a.V.Instructions.Pos.Line-1, prose.Options{Plain: true, Via: []string{"agent.json instructions"}, Lowerers: lowerers, Ctx: facts.ModelReads})
		set.Merge(r.Set)
		set.Merge(docProgram(r).run())
	}
	returned(set)
	manifests(s, set)
	mcpStrings(s, set)
	askedContext(s, set)
	set.Intent = intent(s, hosts, repos, titles)
	set.Sort()
	return set
}

type docText struct{ path, text string }

// lowerDocs reads the documents as prose on every processor: each is
// lowered on its own, and the results are merged in scan order, so the
// model is the same however many there are. Prose is the model's costliest
// producer (a megabyte of documentation is seconds of it).
func lowerDocs(s *resolve.Subject, docs []docText) []*prose.Result {
	out := make([]*prose.Result, len(docs))
	next := make(chan int, len(docs))
	for i := range docs {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(docs)) {
		wg.Go(func() {
			for i := range next {
				d := docs[i]
				var ctx facts.Context
				if files.ModelRead(s, d.path) {
					ctx = facts.ModelReads
				}
				out[i] = prose.Lower(d.path, d.text, 0, prose.Options{Lowerers: lowerers, Ctx: ctx, Ships: ships(s, d.path)})
			}
		})
	}
	wg.Wait()
	return out
}

// Why a program or a document was not read.
const (
	ReasonNotText  = "not read: not text (more than one byte in ten is NUL, a control character or invalid UTF-8)"
	ReasonTooLarge = "not read: past the scan limits"
	ReasonBudget   = "not read: past the model's budget (8 MiB of code and 16 MiB of documents per run)"
)

// The model's budget: what one run lowers, in scan order, so that its
// time and memory stay bounded whatever the artifact ships (prose costs
// about 1.5 µs a byte, code less). The largest public skills ship under
// 1 MiB of documents.
const (
	MaxCodeBytes = files.MaxCodeBytes
	MaxDocBytes  = 16 << 20
)

// maxCode and maxDocs are the budget in force (tests lower it).
var maxCode, maxDocs = MaxCodeBytes, MaxDocBytes

// Unread lists the programs and documents of a subject that no producer
// could read, with why; its model says nothing about them.
func Unread(s *resolve.Subject) []resolve.Skip {
	var out []resolve.Skip
	for _, u := range Of(s).Unresolved {
		if u.What == ReasonNotText || u.What == ReasonTooLarge || u.What == ReasonBudget {
			out = append(out, resolve.Skip{Path: u.At.Path, Reason: u.What})
		}
	}
	return out
}

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
	var homes []string
	if m := s.Manifests; m != nil {
		if m.Skill != nil && m.Skill.V != nil {
			in.Declared = facts.Span{Path: m.Skill.Path, Line: 1, Medium: facts.Manifest}
			for _, k := range m.Skill.V.Keys {
				homes = append(homes, homeURLs(k.Name, k.Value, 0)...)
				repos = append(repos, repoURLs(k.Value, 0)...)
				if strings.EqualFold(k.Name, "description") && k.Value != nil && k.Value.Kind == yaml.ScalarNode {
					hosts = append(hosts, describedHosts(k.Value.Value)...)
				}
			}
		}
		var fields []*manifest.StringField
		if m.Package != nil && m.Package.V != nil {
			fields = append(fields, m.Package.V.Homepage, m.Package.V.Repository)
		}
		if m.Plugin != nil && m.Plugin.V != nil {
			fields = append(fields, m.Plugin.V.Homepage, m.Plugin.V.Repository)
		}
		if m.Package != nil && m.Package.V != nil && m.Package.V.Description != nil {
			hosts = append(hosts, describedHosts(m.Package.V.Description.Value)...)
		}
		if m.Plugin != nil && m.Plugin.V != nil && m.Plugin.V.Description != nil {
			hosts = append(hosts, describedHosts(m.Plugin.V.Description.Value)...)
		}
		for _, u := range fields {
			if u != nil && u.Value != "" {
				homes = append(homes, hostOf(u.Value))
				if r, _, ok := vocab.ForgeRepo(u.Value); ok {
					repos = append(repos, r)
				}
			}
		}
	}
	slices.Sort(repos)
	in.Repos = slices.Compact(repos)
	hosts = append(hosts, homes...)
	slices.Sort(hosts)
	in.Hosts = slices.Compact(hosts)
	slices.Sort(homes)
	in.Homes = slices.Compact(homes)
	return in
}

// bareHost is a host name written without a scheme ("graph.example.com").
var bareHost = regexp.MustCompile(`(?i)(?:^|[\s(,;:"'])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.){2,}[a-z]{2,24})\b`)

// describedHosts are the hosts an artifact's own description names, with
// or without a scheme ("all calls go to graph.example.com only"): where
// it says it talks. A bare name counts only with three labels or more
// under a public suffix, so file names (SKILL.md, config.json) and
// dotted identifiers are not read as hosts.
func describedHosts(desc string) []string {
	var out []string
	for _, m := range bareHost.FindAllStringSubmatch(desc, 16) {
		h := strings.ToLower(m[1])
		if _, icann := publicsuffix.PublicSuffix(h); !icann {
			continue
		}
		if _, err := publicsuffix.EffectiveTLDPlusOne(h); err != nil {
			continue
		}
		out = append(out, h)
	}
	for _, u := range describedURL.FindAllString(desc, 16) {
		if _, h, _, ok := vocab.SplitURL(u); ok {
			out = append(out, h)
		}
	}
	return out
}

var describedURL = regexp.MustCompile(`https?://[^\s)>\]"'` + "`" + `]+`)

// homeURLs are the hosts of a frontmatter's homepage, repository or
// source values, at the top or nested under metadata (bounded depth).
func homeURLs(key string, v *yaml.Node, depth int) []string {
	if v == nil || depth > 4 {
		return nil
	}
	switch v.Kind {
	case yaml.ScalarNode:
		switch strings.ToLower(key) {
		case "homepage", "repository", "repo", "source", "url", "website":
			if strings.HasPrefix(v.Value, "https://") || strings.HasPrefix(v.Value, "http://") {
				return []string{hostOf(v.Value)}
			}
		}
	case yaml.MappingNode:
		var out []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			out = append(out, homeURLs(v.Content[i].Value, v.Content[i+1], depth+1)...)
		}
		return out
	}
	return nil
}

// repoURLs are the forge repositories a frontmatter value names, at any
// key (github-url, source, metadata.repository), bounded depth.
func repoURLs(v *yaml.Node, depth int) []string {
	if v == nil || depth > 4 {
		return nil
	}
	if v.Kind == yaml.ScalarNode {
		if r, _, ok := vocab.ForgeRepo(v.Value); ok {
			return []string{r}
		}
		return nil
	}
	var out []string
	for _, c := range v.Content {
		out = append(out, repoURLs(c, depth+1)...)
	}
	return out
}

// mainDoc reports the document that introduces the artifact: the skill's
// SKILL.md, or the README at its root.
func mainDoc(s *resolve.Subject, p string) bool {
	if m := s.Manifests; m != nil && m.Skill != nil && m.Skill.Path == p {
		return true
	}
	return strings.EqualFold(p, "README.md") || strings.EqualFold(p, "SKILL.md")
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
				p.add(lowerers["shell"](name, cmd.Value, int32(cmd.Line-1)), t.Ctx|facts.InDoc, []string{fmt.Sprintf("%s of %s, run as %s:%d says", t.Key, name, t.At.Path, t.At.Line)})
			}
		}
	}
}

// obey reads the data files a model-read document tells the model to take
// as its instructions ("treat policy.json as authoritative") as text the
// model reads: their strings go through the prose producer, each fact
// saying which document sent the model there. A file is read once.
func obey(s *resolve.Subject, set *facts.Set, ts []prose.Tell) {
	done := map[string]bool{}
	for _, t := range ts {
		if !files.ModelRead(s, t.At.Path) {
			continue
		}
		name := path.Clean(path.Join(path.Dir(t.At.Path), t.File))
		data, ok := s.Inventory.Read(name)
		if !ok {
			if data, ok = s.Inventory.Read(path.Clean(t.File)); !ok {
				continue
			}
			name = path.Clean(t.File)
		}
		if done[name] || len(data) > prose.MaxStructured {
			continue
		}
		done[name] = true
		via := fmt.Sprintf("taken as instructions, as %s:%d says", t.At.Path, t.At.Line)
		r := prose.LowerStructured(name, string(data), prose.Options{Lowerers: lowerers, Ctx: t.Ctx | facts.ModelReads, Via: []string{via}})
		set.Merge(r.Set)
		set.Merge(docProgram(r).run())
	}
}

// lookupKey finds the string values under a key, at any depth, of a JSON
// or YAML document (bounded), each with its line.
func lookupKey(data []byte, key string) []*yaml.Node {
	if len(data) > prose.MaxStructured || key == "" {
		return nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil
	}
	var out []*yaml.Node
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
						out = append(out, v)
					case yaml.SequenceNode:
						for _, it := range v.Content {
							if it.Kind == yaml.ScalarNode {
								out = append(out, it)
							}
						}
					case yaml.MappingNode:
						for j := 0; j+1 < len(v.Content); j += 2 {
							if c := strings.ToLower(v.Content[j].Value); c == "command" || c == "cmd" || c == "run" || c == "script" {
								out = append(out, v.Content[j+1])
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
