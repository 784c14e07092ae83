package lex

import "strings"

var regexAfterKeyword = map[string]bool{"return": true, "typeof": true, "case": true, "do": true, "else": true,
	"in": true, "of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true, "await": true, "instanceof": true}

// JS tokenizes JavaScript or TypeScript, comments included. Unterminated
// literals run to the end of input.
func JS(src string) []Token {
	l := &scanner{text: src, line: 1, lineStart: 0, toks: make([]Token, 0, capacity(src))}
	l.js(0, false)
	return l.toks
}

type scanner struct {
	text      string // token texts share it
	pos       int
	line      int
	lineStart int
	depth     int
	toks      []Token
	lastLine  int
}

func (l *scanner) emit(k Kind, start, line, col int) {
	t := Token{Kind: k, Text: l.text[start:l.pos], Line: int32(line), Col: int32(col), Depth: int32(l.depth)}
	if k != Comment && line != l.lastLine {
		t.LineStart = true
		l.lastLine = line
	}
	l.toks = append(l.toks, t)
}

func (l *scanner) newline() {
	l.line++
	l.lineStart = l.pos + 1
}

func (l *scanner) regexAllowed() bool {
	for i := len(l.toks) - 1; i >= 0; i-- {
		t := l.toks[i]
		if t.Kind == Comment {
			continue
		}
		switch t.Kind {
		case Ident:
			return regexAfterKeyword[t.Text]
		case Punct:
			return t.Text != ")" && t.Text != "]" && t.Text != "}"
		default:
			return false
		}
	}
	return true
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// js scans until end of input, or, inside a template expression (nested),
// until the '}' that closes it.
func (l *scanner) js(nest int, inTemplate bool) {
	braces := 0
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		start, line, col := l.pos, l.line, l.pos-l.lineStart+1
		switch {
		case c == '\n':
			l.newline()
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '/' && l.peek(1) == '/':
			for l.pos < len(l.text) && l.text[l.pos] != '\n' {
				l.pos++
			}
			l.emit(Comment, start, line, col)
		case c == '/' && l.peek(1) == '*':
			l.pos += 2
			for l.pos < len(l.text) && !(l.text[l.pos] == '*' && l.peek(1) == '/') {
				if l.text[l.pos] == '\n' {
					l.newline()
				}
				l.pos++
			}
			l.pos = min(l.pos+2, len(l.text))
			l.emit(Comment, start, line, col)
		case c == '\'' || c == '"':
			l.quoted(c)
			l.emit(String, start, line, col)
		case c == '`':
			l.template(nest)
			l.emit(Template, start, line, col)
		case c == '/' && l.regexAllowed():
			l.regex()
			l.emit(Regex, start, line, col)
		case isIdentStart(c):
			for l.pos < len(l.text) && isIdentPart(l.text[l.pos]) {
				l.pos++
			}
			l.emit(Ident, start, line, col)
		case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
			for l.pos < len(l.text) && (isIdentPart(l.text[l.pos]) || l.text[l.pos] == '.') {
				l.pos++
			}
			l.emit(Number, start, line, col)
		default:
			if inTemplate && c == '}' && braces == 0 {
				l.pos++
				return
			}
			switch c {
			case '{', '(', '[':
				if c == '{' {
					braces++
				}
				l.pos++
				l.emit(Punct, start, line, col)
				l.depth++
				continue
			case '}', ')', ']':
				if c == '}' {
					braces--
				}
				if l.depth > 0 {
					l.depth--
				}
			}
			l.pos++
			// Keep multi-character operators together where it matters (=>, ===).
			for l.pos < len(l.text) && strings.IndexByte("=>&|+-*<!?.", l.text[l.pos]) >= 0 && strings.IndexByte("=>&|+-*<!?.", c) >= 0 {
				l.pos++
			}
			l.emit(Punct, start, line, col)
		}
	}
}

func (l *scanner) peek(n int) byte {
	if l.pos+n < len(l.text) {
		return l.text[l.pos+n]
	}
	return 0
}

func (l *scanner) quoted(q byte) {
	l.pos++
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		switch {
		case c == '\\':
			if l.peek(1) == '\n' {
				l.newline()
			}
			l.pos += 2
			continue
		case c == q:
			l.pos++
			return
		case c == '\n':
			return // unterminated; a newline ends a JS string
		}
		l.pos++
	}
	l.pos = min(l.pos, len(l.text))
}

func (l *scanner) template(nest int) {
	l.pos++
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		switch {
		case c == '\\':
			if l.peek(1) == '\n' {
				l.newline()
			}
			l.pos += 2
			continue
		case c == '`':
			l.pos++
			return
		case c == '\n':
			l.newline()
		case c == '$' && l.peek(1) == '{':
			l.pos += 2
			if nest >= MaxNesting {
				continue
			}
			// Expression tokens are scanned but belong to the template.
			inner := &scanner{text: l.text, pos: l.pos, line: l.line, lineStart: l.lineStart}
			inner.js(nest+1, true)
			l.pos, l.line, l.lineStart = inner.pos, inner.line, inner.lineStart
			continue
		}
		l.pos++
	}
	l.pos = min(l.pos, len(l.text))
}

func (l *scanner) regex() {
	l.pos++
	inClass := false
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		switch {
		case c == '\\':
			l.pos += 2
			continue
		case c == '\n':
			return
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			l.pos++
			for l.pos < len(l.text) && isIdentPart(l.text[l.pos]) {
				l.pos++
			}
			return
		}
		l.pos++
	}
	l.pos = min(l.pos, len(l.text))
}
