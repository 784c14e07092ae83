package files

import (
	"iter"

	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

type parseKey struct{ path string }

type linkKey struct{}

// Code yields the subject's JavaScript/TypeScript and Python text files
// (archive members included), each parsed once per run for every check
// that asks, with the constants they import from each other linked
// (fold.Link). The files are yielded in scan order; before the first, the
// caller parses every file no other check has started on, so that checks
// running in parallel share the parsing rather than wait on each other.
func Code(s *resolve.Subject) iter.Seq2[*resolve.File, *fold.File] {
	return func(yield func(*resolve.File, *fold.File) bool) {
		todo := codeFiles(s)
		for _, c := range todo {
			s.Prefetch(parseKey{c.f.Path}, parser(c.lang, s.Text(c.f)))
		}
		s.Memo(linkKey{}, func() any {
			parsed := map[string]*fold.File{}
			for _, c := range todo {
				parsed[c.f.Path] = Parse(s, c.f.Path, c.lang, s.Text(c.f))
			}
			fold.Link(parsed)
			return nil
		})
		for _, c := range todo {
			if !yield(c.f, Parse(s, c.f.Path, c.lang, s.Text(c.f))) {
				return
			}
		}
	}
}

type code struct {
	f    *resolve.File
	lang string
}

// The code budget of the token-level checks: JavaScript/TypeScript and
// Python parsed per run, in scan order, the same as the analysis model's
// (analysis.MaxCodeBytes). A parse holds about 24 bytes for every byte of
// minified source, for the whole run, so the budget bounds the memory of
// a run whatever the artifact ships; the largest public MCP servers ship
// about 1 MiB of code.
const MaxCodeBytes = 8 << 20

// maxCode is the budget in force (tests lower it).
var maxCode = MaxCodeBytes

// SetCodeBudget sets the budget in force and returns the one it replaces
// (tests of the checks lower it).
func SetCodeBudget(n int) int { old := maxCode; maxCode = n; return old }

type codeKey struct{}

type codeSet struct {
	todo []code
	over []string
}

func codeFiles(s *resolve.Subject) []code { return codeSetOf(s).todo }

func codeSetOf(s *resolve.Subject) *codeSet {
	return s.Memo(codeKey{}, func() any {
		set := &codeSet{}
		n := 0
		for f := range Scan(s) {
			if !IsText(f) {
				continue
			}
			if lang := Language(f.Path, f.Content); lang == "js" || lang == "python" {
				if n+len(f.Content) > maxCode {
					set.over = append(set.over, f.Path)
					continue
				}
				n += len(f.Content)
				set.todo = append(set.todo, code{f, lang})
			}
		}
		return set
	}).(*codeSet)
}

// CodeUnread lists the code files past the code budget, which Code does
// not yield: a check that found nothing has not read them.
func CodeUnread(s *resolve.Subject) []string { return codeSetOf(s).over }

// PrefetchCode parses the code files nobody has started on. A check about
// to wait on work built from the parse (the MCP surface) calls it first,
// so that it helps the parse instead of idling.
func PrefetchCode(s *resolve.Subject) {
	for _, c := range codeFiles(s) {
		s.Prefetch(parseKey{c.f.Path}, parser(c.lang, s.Text(c.f)))
	}
}

// Parse parses a subject's code file once for every check that asks.
func Parse(s *resolve.Subject, path, lang, src string) *fold.File {
	return s.Memo(parseKey{path}, parser(lang, src)).(*fold.File)
}

func parser(lang, src string) func() any {
	return func() any { return fold.Parse(lang, src) }
}
