package instruct

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
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
	// cache, set on a Doc from Load, holds its segmentation, shared by
	// every check of a run.
	cache *docCache
}

type docCache struct {
	bodyOnce sync.Once
	body     []Block
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
	f, ok := s.Inventory.File(p)
	if !ok || !f.Scanned {
		return Doc{}, false
	}
	data, text := f.Content, s.Text(f)
	d := Doc{Path: p, Body: text}
	if fm, err := manifest.ParseFrontmatter(data); err == nil {
		d.Body, d.LineBase = string(fm.Body), fm.BodyLine-1
		if bytes.HasSuffix(data, fm.Body) {
			d.Body = text[len(data)-len(fm.Body):] // shared, not copied
		}
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
