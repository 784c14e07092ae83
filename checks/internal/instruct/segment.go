package instruct

import (
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/lex"
)

// Kind of a markdown block.
type Kind int

const (
	Para Kind = iota
	Fence
	Quote
	Heading
	Comment // an HTML comment: a hidden channel
)

// Block is a unit of a markdown document: a paragraph, list item, table
// row, heading, blockquote, fenced block or HTML comment.
type Block struct {
	Kind    Kind
	Text    string
	Line    int    // file line of the block's first line
	Info    string // fence info string
	Heading string // the enclosing heading
	Before  string // up to two lines before the block
	After   string // the line after the block
}

var (
	fenceOpen = lex.Lazy("^ {0,3}(`{3,}|~{3,})\\s*([\\w+-]*)")
)

// Blocks splits a markdown document. lineBase is added to line numbers
// (the body's offset in its file). An unterminated fence ends at the end
// of the file, never in another file.
func Blocks(doc string, lineBase int) []Block {
	lines := strings.Split(doc, "\n")
	var out []Block
	heading := ""
	var cur []string
	curKind := Para
	curLine := 0
	flush := func(end int) {
		if len(cur) == 0 {
			return
		}
		text := strings.Join(cur, "\n")
		if strings.TrimSpace(text) != "" {
			out = append(out, Block{Kind: curKind, Text: text, Line: lineBase + curLine + 1, Heading: heading,
				Before: around(lines, curLine-2, curLine), After: around(lines, end, end+1)})
		}
		cur = nil
		curKind = Para
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		t := strings.TrimSpace(l)
		switch {
		case fenceOpen.Re().MatchString(l):
			flush(i)
			m := fenceOpen.Re().FindStringSubmatch(l)
			marker := m[1]
			start := i
			var body []string
			for i++; i < len(lines); i++ {
				if c := strings.TrimSpace(lines[i]); strings.HasPrefix(c, marker[:3]) && strings.Trim(c, marker[:1]) == "" && len(c) >= len(marker) {
					break
				}
				body = append(body, strings.TrimRight(lines[i], "\r"))
			}
			out = append(out, Block{Kind: Fence, Text: strings.Join(body, "\n"), Line: lineBase + start + 1, Info: strings.ToLower(m[2]),
				Heading: heading, Before: around(lines, start-2, start), After: around(lines, i+1, i+2)})
		case strings.HasPrefix(t, "<!--"):
			flush(i)
			start := i
			var body []string
			rest := t
			for {
				body = append(body, rest)
				if strings.Contains(rest, "-->") || i+1 >= len(lines) {
					break
				}
				i++
				rest = lines[i]
			}
			out = append(out, Block{Kind: Comment, Text: strings.Join(body, "\n"), Line: lineBase + start + 1, Heading: heading})
		case strings.HasPrefix(t, "#"):
			flush(i)
			heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
			out = append(out, Block{Kind: Heading, Text: heading, Line: lineBase + i + 1, Heading: heading})
		case t == "":
			flush(i)
		case strings.HasPrefix(t, ">"):
			if curKind != Quote {
				flush(i)
				curKind, curLine = Quote, i
			}
			cur = append(cur, strings.TrimSpace(strings.TrimPrefix(t, ">")))
		case strings.HasPrefix(t, "|") || isListItem(t):
			flush(i)
			curKind, curLine = Para, i
			cur = append(cur, l)
		default:
			if len(cur) == 0 {
				curLine = i
			}
			cur = append(cur, l)
		}
	}
	flush(len(lines))
	return out
}

func around(lines []string, from, to int) string {
	from, to = max(from, 0), min(to, len(lines))
	if from >= to {
		return ""
	}
	return strings.Join(lines[from:to], "\n")
}

// LineOf maps a byte offset in normalised block text back to a file line,
// approximately: by the share of the block's lines.
func (b Block) LineOf(normOffset, normLen int) int {
	n := strings.Count(b.Text, "\n")
	if n == 0 || normLen == 0 {
		return b.Line
	}
	return b.Line + n*normOffset/normLen
}

// Quoted reports whether the normalised text's offset lies inside quotes
// or inline code: "…", “…”, `…` (1 to 400 characters, on one line) and
// '…' (3 to 400, word-bounded). The spans are those the regular expression
// in quoteSpans's test finds, found by hand: its bounded repetitions
// compiled to about 1,600 instructions, which cost a fresh process 1.2 ms
// and 0.9 MB to compile and ran on the slow NFA path. A differential fuzz
// test holds the two equal.
func Quoted(norm string, off int) bool {
	for s := range quoteSpans(norm) {
		if s[0] <= off && off < s[1] {
			return true
		}
		if s[0] > off {
			return false
		}
	}
	return false
}

// maxQuoted bounds a quoted span's characters.
const maxQuoted = 400

// quoteSpans yields the successive, non-overlapping quoted spans of s, as
// Go's regexp would find them for
//
//	"[^"\n]{1,400}"|“[^”\n]{1,400}”|`[^`\n]{1,400}`|(^|\W)'[^'\n]{3,400}'(\W|$)
//
// leftmost first, alternatives in that order, positions at rune starts.
func quoteSpans(s string) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		for p := 0; p < len(s); {
			r, w := utf8.DecodeRuneInString(s[p:])
			if end, ok := quoteAt(s, p, r, w); ok {
				if !yield([2]int{p, end}) {
					return
				}
				p = end
				continue
			}
			p += w
		}
	}
}

// quoteAt matches the alternatives at p, whose rune is r (w bytes).
func quoteAt(s string, p int, r rune, w int) (int, bool) {
	switch r {
	case '"', '`':
		if end, ok := closed(s, p+w, r, 1); ok {
			return end, true
		}
	case '“':
		if end, ok := closed(s, p+w, '”', 1); ok {
			return end, true
		}
	}
	// (^|\W)'…'(\W|$): the empty start of text first, then a non-word rune.
	if p == 0 && r == '\'' {
		if end, ok := apostrophes(s, p); ok {
			return end, true
		}
	}
	if !isWordRune(r) && p+w < len(s) && s[p+w] == '\'' {
		if end, ok := apostrophes(s, p+w); ok {
			return end, true
		}
	}
	return 0, false
}

// closed matches a run of min to maxQuoted runes, none of them close or a
// newline, from i, then close; it returns the end after close.
func closed(s string, i int, close rune, min int) (int, bool) {
	n := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == close {
			if n >= min {
				return i + w, true
			}
			return 0, false
		}
		if r == '\n' || n == maxQuoted {
			return 0, false
		}
		n++
		i += w
	}
	return 0, false
}

// apostrophes matches '…'(\W|$) with the opening apostrophe at i.
func apostrophes(s string, i int) (int, bool) {
	end, ok := closed(s, i+1, '\'', 3)
	if !ok {
		return 0, false
	}
	if end == len(s) {
		return end, true
	}
	if r, w := utf8.DecodeRuneInString(s[end:]); !isWordRune(r) {
		return end + w, true
	}
	return 0, false
}

// isWordRune is regexp's \w: ASCII letters, digits and underscore.
func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}

// isListItem: "- x", "* x", "+ x", "1. x", "2) x".
func isListItem(t string) bool {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}
