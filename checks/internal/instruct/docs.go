package instruct

import (
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Doc is a model-read markdown document: its body without frontmatter, and
// the frontmatter's string values, which the model reads too.
type Doc struct {
	Path     string
	Body     string
	LineBase int // file line of the body's first line, minus one
	Front    []Block
	// cache, set on a Doc from Load, holds what the analysers derive from
	// it, shared by every check of a run: five checks segmented and
	// normalised the same documents.
	cache *docCache
}

type docCache struct {
	bodyOnce sync.Once
	body     []Block
	allOnce  sync.Once
	all      []Block
	norms    []string
}

// BodyBlocks segments the body (Blocks), once per run for a loaded Doc.
// The blocks are shared: read them, never change them.
func (d Doc) BodyBlocks() []Block {
	if d.cache == nil {
		return Blocks(d.Body, d.LineBase)
	}
	d.cache.bodyOnce.Do(func() { d.cache.body = Blocks(d.Body, d.LineBase) })
	return d.cache.body
}

// analysed is the frontmatter's blocks and the body's, each with its
// normalised text.
func (d Doc) analysed() ([]Block, []string) {
	compute := func() ([]Block, []string) {
		blocks := append(slices.Clip(d.Front), d.BodyBlocks()...)
		norms := make([]string, len(blocks))
		for i, b := range blocks {
			norms[i] = Normalize(b.Text)
		}
		return blocks, norms
	}
	if d.cache == nil {
		return compute()
	}
	d.cache.allOnce.Do(func() { d.cache.all, d.cache.norms = compute() })
	return d.cache.all, d.cache.norms
}

// ModelDocs yields every text file of the subject that a model reads, as a
// Doc.
func ModelDocs(s *resolve.Subject) iter.Seq[Doc] {
	return func(yield func(Doc) bool) {
		for i := range s.Inventory.Files {
			f := &s.Inventory.Files[i]
			if !files.IsText(f) || !files.ModelRead(s, f.Path) {
				continue
			}
			if d, ok := Load(s, f.Path); ok && !yield(d) {
				return
			}
		}
	}
}

// docKey memoises a loaded Doc in the subject.
type docKey string

type loaded struct {
	d  Doc
	ok bool
}

// Load reads a file as a Doc, once per run.
func Load(s *resolve.Subject, p string) (Doc, bool) {
	l := s.Memo(docKey(p), func() any {
		d, ok := load(s, p)
		d.cache = &docCache{}
		return loaded{d, ok}
	}).(loaded)
	return l.d, l.ok
}

func load(s *resolve.Subject, p string) (Doc, bool) {
	data, ok := s.Inventory.Read(p)
	if !ok {
		return Doc{}, false
	}
	d := Doc{Path: p, Body: string(data)}
	if fm, err := manifest.ParseFrontmatter(data); err == nil {
		d.Body, d.LineBase = string(fm.Body), fm.BodyLine-1
		for _, k := range fm.Keys {
			if k.Value != nil && k.Value.Value != "" {
				d.Front = append(d.Front, Block{Kind: Para, Text: k.Value.Value, Line: k.Pos.Line, Heading: "frontmatter " + k.Name})
			}
		}
	}
	return d, true
}

// Result collects an analysis's evidence.
type Result struct {
	Fails, Warns []checks.Evidence
	Labelled     int
}

// Outcome turns the findings into a check result: fail on any failure,
// warn (0.5) on any warning, not applicable when read is 0, otherwise pass
// with passed. The first finding gives the summary; extra evidence (a
// metric) follows the findings.
func (r *Result) Outcome(read int, none, passed string, extra ...checks.Evidence) checks.Result {
	at := func(e checks.Evidence) string { return fmt.Sprintf("%s:%d %s", e.Path, e.Line, e.Message) }
	switch {
	case len(r.Fails) > 0:
		return checks.Failed(at(r.Fails[0]), slices.Concat(r.Fails, r.Warns, extra)...)
	case len(r.Warns) > 0:
		return checks.Warning(0.5, at(r.Warns[0]), slices.Concat(r.Warns, extra)...)
	case read == 0:
		return checks.NotApplicable(none)
	}
	return checks.Passed(passed, extra...)
}

func (r *Result) add(fail bool, path string, line int, msg string) {
	e := checks.At(path, line, 0, msg)
	if fail {
		r.Fails = append(r.Fails, e)
	} else {
		r.Warns = append(r.Warns, e)
	}
}

// Negated reports whether the words before off negate a hit ("never read ...").
func Negated(norm string, off int) bool { return negated(norm, off) }

func negated(norm string, off int) bool {
	before := norm[max(0, off-16):off]
	return strings.Contains(before, "never ") || strings.Contains(before, "do not ") || strings.Contains(before, "don't ") ||
		strings.Contains(before, "must not ") || strings.Contains(before, "should not ")
}

func labelledBlock(b Block, norm string) bool {
	return Labelled(norm) || Labelled(Normalize(b.Before)) || Labelled(Normalize(b.After)) || Labelled(Normalize(b.Heading))
}

// Injection runs the instruction analyser over the visible text of a
// document: an unquoted, unnegated hit fails; a quoted hit warns unless it
// is a labelled example.
func Injection(d Doc, r *Result) {
	blocks, norms := d.analysed()
	for i, b := range blocks {
		if b.Kind == Heading || b.Kind == Comment {
			continue // headings name topics; comments are hidden channels, judged elsewhere
		}
		n := norms[i]
		labelled := sync.OnceValue(func() bool { return labelledBlock(b, n) })
		for _, h := range Instructions(n) {
			quoted := b.Kind == Quote || b.Kind == Fence || Quoted(n, h.Start)
			switch {
			case negated(n, h.Start):
			case quoted && labelled():
				r.Labelled++
			case quoted:
				r.add(false, d.Path, b.LineOf(h.Start, len(n)), fmt.Sprintf("quoted %s text addressed to the model, with no label saying it is an example", h.Family))
			default:
				r.add(true, d.Path, b.LineOf(h.Start, len(n)), fmt.Sprintf("%s: text addressed to the model that overrides the user or its host", h.Family))
			}
		}
	}
}

// shellInfo: fence languages that are shell commands.
var shellInfo = map[string]bool{"": true, "bash": true, "sh": true, "shell": true, "console": true, "zsh": true, "terminal": true, "shell-session": true}

// HostileActions runs the hostile-action analyser over a document: shell
// commands in fenced blocks and inline code through the shell rules (the
// file's shell blocks also as one program, so a download in one step and
// its execution in the next are seen together), and the imperative
// patterns over the text. A negated or labelled example passes.
func Hostile(d Doc, r *Result, instructions bool) {
	var program []string
	var programLines []int
	blocks, norms := d.analysed()
	seen := map[int]bool{}
	rate := func(src string, line int, b Block, n string, labelled func() bool) {
		fs, _, err := shell.AnalyzeLenient([]byte(src))
		if err != nil {
			return
		}
		for _, f := range fs {
			if f.Severity != shell.Fail {
				continue // installs and sudo in instructions are the user's own steps
			}
			l := line + f.Line - 1
			if seen[l] {
				continue
			}
			seen[l] = true
			if labelled() || negated(n, 0) {
				r.Labelled++
				continue
			}
			r.add(true, d.Path, l, fmt.Sprintf("an instruction runs a hostile command (%s): %s", f.Category, f.Message))
		}
	}
	for i, b := range blocks {
		n := norms[i]
		// Asked once per finding or hit; the answer is the block's.
		labelled := sync.OnceValue(func() bool { return labelledBlock(b, n) })
		switch b.Kind {
		case Fence:
			if decoded, ok := encodedBlock(b.Text); ok {
				rate(decoded, b.Line+1, b, n, labelled)
				continue
			}
			if !shellInfo[b.Info] {
				continue
			}
			src := stripPrompts(b.Text)
			rate(src, b.Line+1, b, n, labelled)
			if !labelled() {
				program = append(program, src)
				programLines = append(programLines, b.Line+1)
			}
			continue
		case Comment, Heading:
			continue
		}
		table := strings.HasPrefix(strings.TrimSpace(b.Text), "|")
		for _, code := range inlineCode(b.Text) {
			if table {
				// GFM: a pipe inside a cell's code span is written \|.
				code = strings.ReplaceAll(code, `\|`, "|")
			}
			if decoded, ok := encodedBlock(code); ok {
				rate(decoded, b.Line, b, n, labelled)
			} else if strings.Contains(code, " ") {
				rate(code, b.Line, b, n, labelled)
			}
		}
		hits := HostileActions(n)
		if instructions {
			hits = append(hits, Instructions(n)...)
		}
		for _, h := range hits {
			quoted := b.Kind == Quote || Quoted(n, h.Start)
			switch {
			case negated(n, h.Start):
			case labelled() && (quoted || Labelled(n)):
				r.Labelled++
			case quoted && !instructions:
				r.add(false, d.Path, b.LineOf(h.Start, len(n)), fmt.Sprintf("quoted %s step with no label saying it is an example", h.Family))
			default:
				r.add(true, d.Path, b.LineOf(h.Start, len(n)), fmt.Sprintf("an instruction to the model: %s", h.Family))
			}
		}
	}
	// The file's unlabelled shell blocks as one program.
	if len(program) > 1 {
		fs, _, err := shell.AnalyzeLenient([]byte(strings.Join(program, "\n")))
		if err == nil {
			offsets := blockOffsets(program)
			for _, f := range fs {
				if f.Severity != shell.Fail {
					continue
				}
				l := mapLine(offsets, programLines, f.Line)
				if !seen[l] {
					seen[l] = true
					r.add(true, d.Path, l, fmt.Sprintf("steps run a hostile command across blocks (%s): %s", f.Category, f.Message))
				}
			}
		}
	}
}

// minEncoded is the shortest base64 block decoded as a possible command.
const minEncoded = 40

// encodedBlock decodes a block or code span that is one base64 run (line
// breaks allowed) into text, for the shell rules: "decode this and run
// it" hides a command from every reader but the model.
func encodedBlock(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), "")
	if len(s) < minEncoded {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			return "", false
		}
	}
	d, ok := fold.Base64(s)
	if !ok || !utf8.ValidString(d) || strings.ContainsRune(d, 0) {
		return "", false
	}
	return d, true
}

func stripPrompts(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "> ") && i > 0 {
			lines[i] = t[2:]
		}
	}
	return strings.Join(lines, "\n")
}

// InlineCode lists the inline code spans of a line of markdown.
func InlineCode(s string) []string { return inlineCode(s) }

func inlineCode(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+2+j:]
	}
}

func blockOffsets(program []string) []int {
	var out []int
	line := 1
	for _, p := range program {
		out = append(out, line)
		line += strings.Count(p, "\n") + 1
	}
	return out
}

func mapLine(offsets, fileLines []int, progLine int) int {
	for i := len(offsets) - 1; i >= 0; i-- {
		if progLine >= offsets[i] {
			return fileLines[i] + progLine - offsets[i]
		}
	}
	return fileLines[0]
}
