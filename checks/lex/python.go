package lex

import "strings"

// Python tokenizes Python source, comments included. String literals with
// any prefix (r, b, u, f and their combinations) and triple quotes are one
// String token each.
func Python(src string) []Token {
	l := &scanner{text: src, line: 1, toks: make([]Token, 0, capacity(src))}
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		start, line, col := l.pos, l.line, l.pos-l.lineStart+1
		switch {
		case c == '\n':
			l.newline()
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.pos++
		case c == '\\' && l.peek(1) == '\n':
			l.pos++
			l.newline()
			l.pos++
		case c == '#':
			for l.pos < len(l.text) && l.text[l.pos] != '\n' {
				l.pos++
			}
			l.emit(Comment, start, line, col)
		case c == '"' || c == '\'':
			l.pyString()
			l.emit(String, start, line, col)
		case isIdentStart(c):
			for l.pos < len(l.text) && isIdentPart(l.text[l.pos]) {
				l.pos++
			}
			if l.pos < len(l.text) && (l.text[l.pos] == '"' || l.text[l.pos] == '\'') && isStringPrefix(l.text[start:l.pos]) {
				l.pyString()
				l.emit(String, start, line, col)
				continue
			}
			l.emit(Ident, start, line, col)
		case c >= '0' && c <= '9':
			for l.pos < len(l.text) && (isIdentPart(l.text[l.pos]) || l.text[l.pos] == '.') {
				l.pos++
			}
			l.emit(Number, start, line, col)
		default:
			switch c {
			case '(', '[', '{':
				l.pos++
				l.emit(Punct, start, line, col)
				l.depth++
				continue
			case ')', ']', '}':
				if l.depth > 0 {
					l.depth--
				}
			}
			l.pos++
			if l.pos < len(l.text) && l.text[l.pos] == '=' && strings.IndexByte("=!<>+-*/%&|^:", c) >= 0 {
				l.pos++
			}
			l.emit(Punct, start, line, col)
		}
	}
	return l.toks
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf", "t", "tr", "rt":
		return true
	}
	return false
}

func (l *scanner) pyString() {
	q := l.text[l.pos]
	triple := l.peek(1) == q && l.peek(2) == q
	if triple {
		l.pos += 3
	} else {
		l.pos++
	}
	for l.pos < len(l.text) {
		c := l.text[l.pos]
		switch {
		case c == '\\':
			if l.peek(1) == '\n' {
				l.pos++
				l.newline()
			}
			l.pos += 2
			continue
		case c == '\n':
			if !triple {
				return
			}
			l.newline()
		case c == q:
			if !triple {
				l.pos++
				return
			}
			if l.peek(1) == q && l.peek(2) == q {
				l.pos += 3
				return
			}
		}
		l.pos++
	}
	l.pos = min(l.pos, len(l.text))
}

// Unquote returns the contents of a simple string literal token: prefix
// and quotes removed, common escapes decoded. It is meant for names and
// short literals, not for faithful decoding of every escape.
func Unquote(lit string) string {
	s := strings.TrimLeft(lit, "rRbBuUfFtT")
	for _, q := range []string{`"""`, `'''`, `"`, `'`, "`"} {
		if len(s) >= 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			s = s[len(q) : len(s)-len(q)]
			break
		}
	}
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\'`, `'`, `\\`, `\`)
	return r.Replace(s)
}

// Code returns the tokens that are not comments, filtered in place: toks
// is reused (a tokenized file is the largest allocation of a run), so the
// caller must not read toks afterwards.
func Code(toks []Token) []Token {
	out := toks[:0]
	for _, t := range toks {
		if t.Kind != Comment {
			out = append(out, t)
		}
	}
	return out
}
