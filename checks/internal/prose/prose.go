// Package prose measures the human-readable text of markdown documents for
// the care checks: words outside frontmatter, code and comments; examples;
// repeated paragraphs.
package prose

import (
	"strings"
	"unicode"
)

// Doc is a markdown document split into prose and fenced code.
type Doc struct {
	Prose  string   // text without frontmatter, fenced code, HTML comments or inline code
	Code   []string // contents of fenced code blocks
	Blocks []string // prose paragraphs
	// Headings are the section headings, each with the number of words or
	// code lines under it before the next heading.
	Headings []Heading
}

// Heading is one section heading.
type Heading struct {
	Text    string
	Content int
}

// MaxBytes bounds the text analysed per document.
const MaxBytes = 1 << 20

// Parse splits a markdown document.
func Parse(md string) Doc {
	if len(md) > MaxBytes {
		md = md[:MaxBytes]
	}
	md = strings.ReplaceAll(md, "\r\n", "\n")
	lines := strings.Split(md, "\n")
	i := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for j := 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "---" {
				i = j + 1
				break
			}
		}
	}
	var d Doc
	var prose, para, code strings.Builder
	fence := ""
	inComment := false
	flush := func() {
		if p := strings.TrimSpace(para.String()); p != "" {
			d.Blocks = append(d.Blocks, p)
		}
		para.Reset()
	}
	credit := func(n int) {
		if len(d.Headings) > 0 {
			d.Headings[len(d.Headings)-1].Content += n
		}
	}
	for ; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				if c := strings.TrimSpace(code.String()); c != "" {
					d.Code = append(d.Code, c)
				}
				code.Reset()
				fence = ""
				continue
			}
			code.WriteString(line + "\n")
			if t != "" {
				credit(1)
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			flush()
			fence = t[:3]
			continue
		}
		if inComment || strings.Contains(t, "<!--") {
			before, after, _ := strings.Cut(t, "<!--")
			if inComment {
				before, after = "", t
			}
			if _, rest, ok := strings.Cut(after, "-->"); ok {
				inComment = false
				t = before + " " + rest
			} else {
				inComment = true
				t = before
			}
		}
		if t == "" {
			flush()
			continue
		}
		if strings.HasPrefix(t, "#") {
			flush()
			d.Headings = append(d.Headings, Heading{Text: strings.TrimSpace(strings.TrimLeft(t, "#"))})
			prose.WriteString(strings.TrimLeft(t, "#") + "\n")
			continue
		}
		t = stripInlineCode(t)
		credit(Words(t))
		prose.WriteString(t + "\n")
		para.WriteString(t + " ")
	}
	flush()
	if c := strings.TrimSpace(code.String()); c != "" {
		d.Code = append(d.Code, c)
	}
	d.Prose = prose.String()
	return d
}

func stripInlineCode(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		if r == '`' {
			in = !in
			b.WriteByte(' ')
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Words counts the words of s: runs of letters or digits holding at least
// one letter; URLs and paths count as one.
func Words(s string) int {
	n := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '|' }) {
		for _, r := range f {
			if unicode.IsLetter(r) {
				n++
				break
			}
		}
	}
	return n
}

// Normalize lowercases a paragraph and keeps only its letters, digits and
// single spaces, so that formatting does not hide a repetition.
func Normalize(p string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(p) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}
