package instruct

import (
	"strings"
	"unsafe"

	"github.com/metahub-ai/attest/checks/facts/text"
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
		text := joinLines(cur)
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

// joinLines joins lines with "\n". Lines that lie one after another in the
// document (split at "\n" and untrimmed: the usual paragraph) are that
// span of the document itself, shared rather than copied, so a paragraph
// of many megabytes is not held twice.
func joinLines(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	end := uintptr(unsafe.Pointer(unsafe.StringData(parts[0]))) + uintptr(len(parts[0]))
	n := len(parts[0])
	for _, p := range parts[1:] {
		if len(p) == 0 || uintptr(unsafe.Pointer(unsafe.StringData(p))) != end+1 {
			return strings.Join(parts, "\n")
		}
		end += 1 + uintptr(len(p))
		n += 1 + len(p)
	}
	if n == len(parts[0]) {
		return parts[0]
	}
	return unsafe.String(unsafe.StringData(parts[0]), n)
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
// or inline code (text.Quoted).
func Quoted(norm string, off int) bool { return text.Quoted(norm, off) }

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

// Normalize is the normal form the prose producer reads (text.Normalize).
func Normalize(s string) string { return text.Normalize(s) }
