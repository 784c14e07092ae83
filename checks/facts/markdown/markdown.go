// Package markdown is the one segmentation of Markdown that every reader
// of a model-read document uses: frontmatter, headings (ATX and setext,
// with the path of headings above each block), fenced code (backticks and
// tildes, indented inside lists), indented code blocks, HTML comments,
// link reference definitions, <details> sections, list items, table rows,
// blockquotes and paragraphs, each with its first line. An unterminated
// fence ends at the end of its document, never in another one.
package markdown

import (
	"strings"
)

// MaxBytes bounds a document; the rest is not segmented (the caller
// records it).
const MaxBytes = 8 << 20

// Kind of a block.
type Kind int

const (
	Para Kind = iota
	Item      // a list item
	Row       // a table row
	Heading
	Quote
	Fence
	Indented    // an indented code block
	Comment     // an HTML comment: not rendered
	LinkDef     // a link reference definition: not rendered
	Frontmatter // YAML between --- lines at the start
)

func (k Kind) String() string {
	return [...]string{"paragraph", "list item", "table row", "heading", "blockquote", "fenced block", "indented block",
		"HTML comment", "link definition", "frontmatter"}[k]
}

// Block is one block of a document.
type Block struct {
	Kind Kind
	Text string
	// Line is the 1-based line of the block's first line in the file
	// (the document's line offset added).
	Line int
	// Info is a fence's info string, lower case ("" for none).
	Info string
	// Headings are the headings above the block, outermost first.
	Headings []string
	// Level is a heading's level.
	Level int
	// Before is the last non-blank line before the block, After the
	// first after it.
	Before, After string
	// Details is true inside a <details> element (collapsed until
	// clicked).
	Details bool
	// Header is a table row's table header row.
	Header string
}

// Heading returns the nearest heading above the block ("" for none).
func (b Block) Heading() string {
	if len(b.Headings) == 0 {
		return ""
	}
	return b.Headings[len(b.Headings)-1]
}

// Parse splits a document. lineBase is added to every line number.
func Parse(doc string, lineBase int) []Block {
	if len(doc) > MaxBytes {
		doc = doc[:MaxBytes]
	}
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	p := &parser{lines: lines, base: lineBase}
	p.run()
	return p.out
}

type parser struct {
	lines    []string
	base     int
	out      []Block
	heads    []string
	levels   []int
	details  int
	cur      []string
	curKind  Kind
	curStart int
	header   string // the header row of the table being read
}

func (p *parser) add(b Block) {
	b.Headings = append([]string(nil), p.heads...)
	b.Details = p.details > 0
	b.Line += p.base
	p.out = append(p.out, b)
}

func (p *parser) prevLine(i int) string {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if t := strings.TrimSpace(p.lines[j]); t != "" {
			return t
		}
	}
	return ""
}

func (p *parser) nextLine(i int) string {
	for j := i; j < len(p.lines) && j < i+3; j++ {
		if t := strings.TrimSpace(p.lines[j]); t != "" {
			return t
		}
	}
	return ""
}

func (p *parser) flush(end int) {
	if len(p.cur) == 0 {
		return
	}
	text := strings.Join(p.cur, "\n")
	if strings.TrimSpace(text) != "" {
		p.add(Block{Kind: p.curKind, Text: text, Line: p.curStart + 1, Before: p.prevLine(p.curStart), After: p.nextLine(end)})
	}
	p.cur = nil
	p.curKind = Para
}

func (p *parser) heading(level int, text string, line int) {
	for len(p.levels) > 0 && p.levels[len(p.levels)-1] >= level {
		p.levels = p.levels[:len(p.levels)-1]
		p.heads = p.heads[:len(p.heads)-1]
	}
	p.add(Block{Kind: Heading, Text: text, Line: line + 1, Level: level, Before: p.prevLine(line), After: p.nextLine(line + 1)})
	p.levels = append(p.levels, level)
	p.heads = append(p.heads, text)
}

func indentOf(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// fence reports a fence opening: its marker and info string.
func fence(l string) (string, string, bool) {
	t := strings.TrimLeft(l, " \t")
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			info := strings.TrimSpace(t[n:])
			if c == '`' && strings.Contains(info, "`") {
				return "", "", false
			}
			if f := strings.Fields(info); len(f) > 0 {
				info = f[0]
			}
			info = strings.Trim(strings.ToLower(info), "{}.")
			return t[:n], info, true
		}
	}
	return "", "", false
}

func (p *parser) run() {
	lines := p.lines
	i := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for j := 1; j < len(lines); j++ {
			if t := strings.TrimSpace(lines[j]); t == "---" || t == "..." {
				p.add(Block{Kind: Frontmatter, Text: strings.Join(lines[1:j], "\n"), Line: 2})
				i = j + 1
				break
			}
		}
	}
	inList := false
	blank := true
	for ; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if marker, info, ok := fence(l); ok {
			p.flush(i)
			start := i
			var body []string
			ind := indentOf(l)
			for i++; i < len(lines); i++ {
				c := strings.TrimSpace(lines[i])
				if strings.HasPrefix(c, marker) && strings.Trim(c, marker[:1]) == "" {
					break
				}
				body = append(body, trimIndent(lines[i], ind))
			}
			p.add(Block{Kind: Fence, Text: strings.Join(body, "\n"), Line: start + 1, Info: info, Before: p.prevLine(start), After: p.nextLine(i + 1)})
			blank = false
			continue
		}
		if strings.HasPrefix(t, "<!--") {
			p.flush(i)
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
			text := strings.Join(body, "\n")
			p.add(Block{Kind: Comment, Text: text, Line: start + 1, Before: p.prevLine(start)})
			// text after the comment on its last line is visible
			if k := strings.LastIndex(rest, "-->"); k >= 0 && strings.TrimSpace(rest[k+3:]) != "" {
				p.add(Block{Kind: Para, Text: strings.TrimSpace(rest[k+3:]), Line: i + 1})
			}
			continue
		}
		low := strings.ToLower(t)
		if strings.HasPrefix(low, "<details") {
			p.flush(i)
			p.details++
			if rest := strings.TrimSpace(t[strings.IndexByte(t, '>')+1:]); strings.IndexByte(t, '>') >= 0 && rest != "" {
				p.cur, p.curKind, p.curStart = []string{rest}, Para, i
			}
			continue
		}
		if strings.HasPrefix(low, "</details") {
			p.flush(i)
			if p.details > 0 {
				p.details--
			}
			continue
		}
		switch {
		case t == "":
			p.flush(i)
			blank = true
			continue
		case indentOf(l) >= 4 && blank && !inList && len(p.cur) == 0:
			start := i
			var body []string
			for ; i < len(lines); i++ {
				if strings.TrimSpace(lines[i]) != "" && indentOf(lines[i]) < 4 {
					break
				}
				body = append(body, trimIndent(lines[i], 4))
			}
			for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
				body = body[:len(body)-1]
			}
			i--
			p.add(Block{Kind: Indented, Text: strings.Join(body, "\n"), Line: start + 1, Before: p.prevLine(start), After: p.nextLine(i + 1)})
			blank = true
			continue
		case atx(t) > 0:
			p.flush(i)
			lv := atx(t)
			p.heading(lv, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[lv:]), "#")), i)
			inList = false
		case len(p.cur) == 0 && thematicBreak(t):
			// a break between blocks, not the start of a paragraph: the
			// lines after it under a "---" are a setext heading of their
			// own, never headed by the break
			continue
		case len(p.cur) > 0 && p.curKind == Para && setext(t) > 0:
			// its lines stay lines, so a statement per line keeps its own
			text := strings.TrimSpace(strings.Join(p.cur, "\n"))
			start := p.curStart
			p.cur = nil
			p.heading(setext(t), text, start)
		case linkDef(t):
			p.flush(i)
			p.add(Block{Kind: LinkDef, Text: t, Line: i + 1})
		case strings.HasPrefix(t, ">"):
			if p.curKind != Quote {
				p.flush(i)
				p.curKind, p.curStart = Quote, i
			}
			p.cur = append(p.cur, strings.TrimSpace(strings.TrimPrefix(t, ">")))
		case strings.HasPrefix(t, "|"):
			p.flush(i)
			if i == 0 || !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "|") {
				p.header = t
			}
			if strings.Trim(t, "|-: \t") != "" {
				p.add(Block{Kind: Row, Text: t, Line: i + 1, Before: p.prevLine(i), Header: p.header})
			}
		case listItem(t):
			p.flush(i)
			p.curKind, p.curStart = Item, i
			p.cur = append(p.cur, t)
			inList = true
		default:
			if len(p.cur) == 0 {
				p.curStart = i
				if !blank || indentOf(l) == 0 {
					inList = inList && indentOf(l) > 0
				}
			}
			p.cur = append(p.cur, l)
		}
		blank = false
	}
	p.flush(len(lines))
}

func trimIndent(l string, n int) string {
	i := 0
	for i < len(l) && i < n && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return l[i:]
}

// atx is an ATX heading's level (0 when t is not one).
func atx(t string) int {
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0
	}
	return n
}

func setext(t string) int {
	switch {
	case len(t) >= 2 && strings.Trim(t, "=") == "":
		return 1
	case len(t) >= 2 && strings.Trim(t, "-") == "":
		return 2
	}
	return 0
}

// thematicBreak: "---", "***", "___" (spaces allowed between).
func thematicBreak(t string) bool {
	for _, c := range "-*_" {
		if strings.Count(t, string(c)) >= 3 && strings.Trim(t, string(c)+" \t") == "" {
			return true
		}
	}
	return false
}

// linkDef: [label]: destination, the idiom [//]: # (comment) included.
func linkDef(t string) bool {
	if !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[^") && false {
		return false
	}
	end := strings.Index(t, "]:")
	return end > 0 && !strings.Contains(t[1:end], "]")
}

// listItem: "- x", "* x", "+ x", "1. x", "2) x".
func listItem(t string) bool {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

// Code is an inline code span of a text with its byte offsets.
type Code struct {
	Text       string
	Start, End int
}

// Inline returns the inline code spans of a block's text: runs of
// backticks closed by a run of the same length, on one line or across
// lines of one paragraph.
func Inline(s string) []Code {
	var out []Code
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		open := i
		j := i + n
		found := false
		for j < len(s) {
			k := strings.IndexByte(s[j:], '`')
			if k < 0 {
				break
			}
			k += j
			m := 0
			for k+m < len(s) && s[k+m] == '`' {
				m++
			}
			if m == n {
				body := s[open+n : k]
				if len(body) > 1 && body[0] == ' ' && body[len(body)-1] == ' ' && strings.TrimSpace(body) != "" {
					body = body[1 : len(body)-1]
				}
				out = append(out, Code{Text: strings.ReplaceAll(body, "\n", " "), Start: open, End: k + m})
				i = k + m
				found = true
				break
			}
			j = k + m
		}
		if !found {
			i = open + n
		}
	}
	return out
}
