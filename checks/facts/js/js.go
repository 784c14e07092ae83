// Package js lowers JavaScript and TypeScript source into the flow
// engine's program form (checks/facts/flow). It is a tolerant
// recursive-descent parser over checks/lex's tokens: every bracket bounds
// what is parsed inside it, so a construct the parser cannot read costs
// that construct and nothing around it. TypeScript's types are skipped,
// JSX elements become calls of the expressions they embed, and what the
// parser cannot place becomes an Other expression over its parts, so
// values still flow through it.
//
// A few JavaScript meanings are lowered into the form's terms: "new X()"
// is a call of X; a function expression is a function declared under a
// name of its own just before the statement that holds it (so that it is
// followed even when nothing calls it); a method takes "this" as its first
// parameter, as a Python method takes self; a plain assignment to a name
// updates the variable a closure sees (Stmt.Outer); and a module's exports
// are the names "module.exports" (CommonJS, also the bare "exports") and
// "default" (an ES module's default export) in its top-level scope.
package js

import (
	"sort"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/lex"
)

// Limits on untrusted input.
const (
	MaxBytes = 4 << 20 // source lowered per file; the rest is recorded as not read
	MaxDepth = 200     // nesting of expressions, statements and JSX
	// maxRetok bounds how often the rest of a file is tokenized again
	// after a JSX element the tokenizer read as code.
	maxRetok = 8
	// maxTypeTokens bounds one type annotation; maxLookahead a type read
	// ahead to decide what a token is (an arrow's return type, a call's
	// type arguments), which is read again.
	maxTypeTokens = 4096
	maxLookahead  = 64
	// maxTemplates bounds template literals nested in one another's
	// ${…}: each level's text is tokenized again.
	maxTemplates = 16
)

// Version is the producer's version; it enters the catalog entry of every
// check that uses it.
const Version = "1.0.0"

// Lower parses src as JavaScript or TypeScript (by the path's extension;
// anything else is read as JavaScript with JSX). Line numbers are offset
// by lineBase (the line before the code's first, for code inside a
// document).
func Lower(path, src string, lineBase int32) *flow.Unit {
	u := &flow.Unit{Path: path, Lang: "js", Top: &flow.Func{}}
	if len(src) > MaxBytes {
		u.Unresolved = append(u.Unresolved, flow.Note{Line: lineBase + 1, What: "JavaScript source past the first 4 MiB not analysed"})
		src = src[:MaxBytes]
	}
	typed, jsx := dialect(path)
	p := &parser{u: u, typed: typed, jsx: jsx, decls: map[*flow.Stmt]bool{}, budget: 8*len(src) + 64<<10}
	if strings.HasPrefix(src, "#!") {
		// a shebang line; keeping its newline keeps the line numbers
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			src = src[i:]
		} else {
			src = ""
		}
	}
	p.load(p.tokens(src, 1+lineBase, 1, 0))
	u.Top.Body = p.stmts()
	if p.exports {
		// exports.x = … and module.exports.x = … fill one object the
		// importers read
		init := &flow.Stmt{Op: flow.Assign, Dst: []*flow.Expr{{Op: flow.Name, S: exportsName, Line: lineBase + 1}},
			Val: &flow.Expr{Op: flow.Dict, Line: lineBase + 1}, Line: lineBase + 1}
		u.Top.Body = append([]*flow.Stmt{init}, u.Top.Body...)
	}
	return u
}

// exportsName is the variable a CommonJS module's exports live in; the
// engine reads it when another unit imports the module.
const exportsName = "module.exports"

// dialect says whether a path is TypeScript (where "<T>x" is a type
// assertion) and whether it may hold JSX.
func dialect(path string) (typed, jsx bool) {
	switch {
	case strings.HasSuffix(path, ".tsx"):
		return true, true
	case strings.HasSuffix(path, ".ts"), strings.HasSuffix(path, ".mts"), strings.HasSuffix(path, ".cts"):
		return true, false
	}
	return false, true
}

type parser struct {
	u     *flow.Unit
	typed bool
	jsx   bool

	ts    []lex.Token
	nl    []bool  // a line break comes before token i
	match []int32 // the closer of the bracket token i opens
	i     int
	end   int // the parser never reads at or past end: the current bracket's closer

	pend      []*flow.Stmt // what the current statement lowers to, in order
	last      *flow.Expr   // the target of the last assignment, which needs no evaluation of its own
	depth     int
	templates int  // template literals being read, one inside another
	noHoist   int  // function expressions stay lambdas (parameter defaults)
	noIn      bool // "in" belongs to a for-in header
	tmp       int
	exports   bool                // the unit names module.exports or exports
	decls     map[*flow.Stmt]bool // function declarations, hoisted to the front of their block
	deep      bool
	budget    int // bytes the JSX scanner and re-tokenizing may still read
	retok     int
}

// load makes toks the tokens the parser reads.
func (p *parser) load(toks []lex.Token) {
	p.ts, p.nl, p.match, p.i, p.end = toks, lineBreaks(toks), matches(toks), 0, len(toks)
}

// withTokens runs f over another token list (a template literal's
// expression) and comes back.
func (p *parser) withTokens(toks []lex.Token, f func()) {
	ts, nl, match, i, end := p.ts, p.nl, p.match, p.i, p.end
	p.load(toks)
	f()
	p.ts, p.nl, p.match, p.i, p.end = ts, nl, match, i, end
}

func lineBreaks(ts []lex.Token) []bool {
	nl := make([]bool, len(ts))
	prevEnd := int32(-1)
	for i, t := range ts {
		nl[i] = t.Line > prevEnd
		prevEnd = t.Line + int32(strings.Count(t.Text, "\n"))
	}
	return nl
}

// matches pairs brackets the way the tokenizer counts depth: a closer
// closes the latest open bracket of any kind; an unclosed bracket runs to
// the end.
func matches(ts []lex.Token) []int32 {
	m := make([]int32, len(ts))
	var stack []int32
	for i, t := range ts {
		m[i] = int32(i)
		if t.Kind != lex.Punct || len(t.Text) != 1 {
			continue
		}
		switch t.Text[0] {
		case '(', '[', '{':
			stack = append(stack, int32(i))
		case ')', ']', '}':
			if n := len(stack); n > 0 {
				m[stack[n-1]] = int32(i)
				stack = stack[:n-1]
			}
		}
	}
	for _, o := range stack {
		m[o] = int32(len(ts))
	}
	return m
}

// --- tokens

// punctuators are JavaScript's operators made of the characters the
// tokenizer keeps together ("=>&|+-*<!?."); a run of them that is not one
// ("=-", "=>!", "<>") is several.
var punctuators = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`>>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ?? ?. ++ -- += -= *= &= |= ** << >>`) {
		punctuators[s] = true
	}
}

func splitPunct(s string) []string {
	if len(s) <= 1 || punctuators[s] {
		return []string{s}
	}
	var out []string
	for len(s) > 0 {
		n := min(4, len(s))
		for ; n > 1 && !punctuators[s[:n]]; n-- {
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// tokens lexes src, whose first byte is at line and col, into the
// parser's tokens: comments dropped, glued operators split, "/" "=" made
// "/=", escaped identifiers decoded, and each JSX element replaced by a
// call of "<jsx>" with the expressions it embeds as arguments.
func (p *parser) tokens(src string, line, col int32, depth int) []lex.Token {
	raw := lex.Code(lex.JS(src))
	var starts []int
	if p.jsx {
		starts = lineStarts(src)
	}
	abs := func(t lex.Token) lex.Token {
		if t.Line == 1 {
			t.Col += col - 1
		}
		t.Line += line - 1
		return t
	}
	out := make([]lex.Token, 0, len(raw)+len(raw)/8)
tokens:
	for i := 0; i < len(raw); i++ {
		t := abs(raw[i])
		if t.Kind != lex.Punct || len(t.Text) == 1 && t.Text != "<" && t.Text != "." && t.Text != `\` && t.Text != "/" && t.Text != "%" && t.Text != "^" {
			out = append(out, t)
			continue
		}
		if t.Text == `\` && i+1 < len(raw) {
			if n, ok := p.escapedIdent(raw, &i, &out); ok {
				out = append(out, abs(n))
				continue
			}
		}
		if (t.Text == "/" || t.Text == "%" || t.Text == "^") && i+1 < len(raw) && adjacent(raw[i], raw[i+1]) &&
			raw[i+1].Kind == lex.Punct && strings.HasPrefix(raw[i+1].Text, "=") && !strings.HasPrefix(raw[i+1].Text, "==") {
			// "/=": the tokenizer keeps "/" alone
			t.Text = t.Text + "="
			raw[i+1].Text = raw[i+1].Text[1:]
			raw[i+1].Col++
			out = append(out, t)
			if raw[i+1].Text == "" {
				i++
			}
			continue
		}
		parts := splitPunct(t.Text)
		off := 0
		for k, part := range parts {
			pt := t
			pt.Text, pt.Col = part, t.Col+int32(off)
			partOff := off
			off += len(part)
			if part == "<" && p.jsx && depth < MaxDepth && p.budget > 0 && jsxAfter(out) {
				o := starts[raw[i].Line-1] + int(raw[i].Col-1) + partOff
				if o+1 < len(src) && (isIdentStart(src[o+1]) || src[o+1] == '>') {
					sc := &jsxScan{s: src}
					end, ok := sc.elem(o, depth)
					p.budget -= max(sc.far, end) - o
					if ok {
						out = p.jsxCall(out, pt, sc.spans, src, starts, line, col, depth)
						j := i + 1
						for j < len(raw) && offset(starts, raw[j]) < end {
							j++
						}
						// A token the tokenizer began inside the element
						// (the regex "/div>);" of a closing tag) runs past
						// its end: read the rest of that line again.
						if k := j - 1; k > i {
							if lastEnd := offset(starts, raw[k]) + len(raw[k].Text); lastEnd > end {
								if strings.IndexByte(raw[k].Text, '\n') < 0 {
									eol := len(src)
									if n := strings.IndexByte(src[end:], '\n'); n >= 0 {
										eol = end + n
									}
									p.budget -= eol - end
									l, c := position(starts, end, line, col)
									out = append(out, p.tokens(src[end:eol], l, c, depth+1)...)
									for j < len(raw) && offset(starts, raw[j]) < eol {
										j++
									}
								} else if p.retok < maxRetok {
									p.retok++
									p.budget -= len(src) - end
									l, c := position(starts, end, line, col)
									return append(out, p.tokens(src[end:], l, c, depth+1)...)
								}
							}
						}
						i = j - 1
						continue tokens
					}
				}
			}
			if k == len(parts)-1 && (part == "." || part == "?.") && i+1 < len(raw) && raw[i+1].Kind == lex.Number && adjacent(raw[i], raw[i+1]) {
				// "x=.5", "a?.5:1": the tokenizer glued the number's point
				if part == "." {
					continue
				}
				pt.Text = "?"
			}
			out = append(out, pt)
		}
	}
	return out
}

// adjacent says whether b starts where a ends, on its line.
func adjacent(a, b lex.Token) bool {
	return a.Line == b.Line && b.Col == a.Col+int32(len(a.Text))
}

// escapedIdent reads an identifier spelled with \uXXXX escapes
// ("\u0065val" is eval), joined to an identifier part written before it.
func (p *parser) escapedIdent(raw []lex.Token, i *int, out *[]lex.Token) (lex.Token, bool) {
	j := *i
	var b strings.Builder
	first := raw[j]
	if n := len(*out); n > 0 && (*out)[n-1].Kind == lex.Ident && j > 0 && raw[j-1].Kind == lex.Ident && adjacent(raw[j-1], raw[j]) {
		b.WriteString((*out)[n-1].Text)
		first = raw[j-1]
		*out = (*out)[:n-1]
	}
	ok := false
	for j+1 < len(raw) && raw[j].Kind == lex.Punct && raw[j].Text == `\` && raw[j+1].Kind == lex.Ident && adjacent(raw[j], raw[j+1]) {
		id := raw[j+1].Text
		if len(id) < 5 || id[0] != 'u' {
			break
		}
		r, err := strconv.ParseUint(id[1:5], 16, 32)
		if err != nil {
			break
		}
		b.WriteRune(rune(r))
		b.WriteString(id[5:])
		ok = true
		j += 2
		// an identifier part right after the escape ("\u0065v" "al" cannot
		// happen: the tokenizer keeps it in the same token)
	}
	if !ok {
		return lex.Token{}, false
	}
	*i = j - 1
	first.Text, first.Kind = b.String(), lex.Ident
	return first, true
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset is a raw token's byte offset in the source its line starts
// index.
func offset(starts []int, t lex.Token) int {
	if int(t.Line) < 1 || int(t.Line) > len(starts) {
		return 0
	}
	return starts[t.Line-1] + int(t.Col-1)
}

// position is the absolute line and column of a byte offset.
func position(starts []int, off int, line, col int32) (int32, int32) {
	idx := sort.SearchInts(starts, off+1) - 1
	c := int32(off-starts[idx]) + 1
	if idx == 0 {
		c += col - 1
	}
	return line + int32(idx), c
}

// jsxAfter says whether a "<" after the tokens so far starts an
// expression (and so may be JSX) rather than comparing.
func jsxAfter(out []lex.Token) bool {
	if len(out) == 0 {
		return true
	}
	t := out[len(out)-1]
	switch t.Kind {
	case lex.Punct:
		switch t.Text {
		case "(", "[", "{", ",", "=", ":", "?", "=>", "&&", "||", "??", ";":
			return true
		}
	case lex.Ident:
		switch t.Text {
		case "return", "yield", "await", "default":
			return true
		}
	}
	return false
}

// jsxCall appends the tokens of "<jsx>(e1, e2, …)" for an element whose
// embedded expressions are spans of src.
func (p *parser) jsxCall(out []lex.Token, at lex.Token, spans [][2]int, src string, starts []int, line, col int32, depth int) []lex.Token {
	mk := func(k lex.Kind, text string) lex.Token {
		return lex.Token{Kind: k, Text: text, Line: at.Line, Col: at.Col}
	}
	out = append(out, mk(lex.Ident, "<jsx>"), mk(lex.Punct, "("))
	n := 0
	for _, sp := range spans {
		l, c := position(starts, sp[0], line, col)
		sub := p.tokens(src[sp[0]:sp[1]], l, c, depth+1)
		if len(sub) == 0 {
			continue // {/* a comment */}
		}
		if n > 0 {
			out = append(out, mk(lex.Punct, ","))
		}
		out = append(out, sub...)
		n++
	}
	return append(out, mk(lex.Punct, ")"))
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// jsxScan reads a JSX element from source bytes: tags, attributes, text,
// and the {expression} containers whose spans it records.
type jsxScan struct {
	s     string
	spans [][2]int
	far   int // the furthest byte read, charged to the budget
}

func (j *jsxScan) reach(i int) int {
	j.far = max(j.far, i)
	return i
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// elem reads the element whose "<" is at s[i] and returns its end.
func (j *jsxScan) elem(i, depth int) (int, bool) {
	s := j.s
	if depth > MaxDepth {
		return 0, false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '>' {
		return j.children(i+1, depth)
	}
	if i >= len(s) || !isIdentStart(s[i]) {
		return 0, false
	}
	for i < len(s) && (isIdentPart(s[i]) || s[i] == '.' || s[i] == ':' || s[i] == '-') {
		i++
	}
	for {
		i = j.reach(skipSpace(s, i))
		if i >= len(s) {
			return 0, false
		}
		c := s[i]
		switch {
		case c == '/':
			if i+1 < len(s) && s[i+1] == '>' {
				return i + 2, true
			}
			return 0, false
		case c == '>':
			return j.children(i+1, depth)
		case c == '{':
			e := j.expr(i, depth)
			if e < 0 {
				return 0, false
			}
			i = e + 1
		case isIdentStart(c):
			for i < len(s) && (isIdentPart(s[i]) || s[i] == '-' || s[i] == ':') {
				i++
			}
			i = skipSpace(s, i)
			if i >= len(s) || s[i] != '=' {
				continue
			}
			i = skipSpace(s, i+1)
			if i >= len(s) {
				return 0, false
			}
			switch s[i] {
			case '"', '\'':
				k := strings.IndexByte(s[i+1:], s[i])
				if k < 0 {
					return 0, false
				}
				i += k + 2
			case '{':
				e := j.expr(i, depth)
				if e < 0 {
					return 0, false
				}
				i = e + 1
			case '<':
				e, ok := j.elem(i, depth+1)
				if !ok {
					return 0, false
				}
				i = e
			default:
				return 0, false
			}
		default:
			return 0, false
		}
	}
}

func (j *jsxScan) children(i, depth int) (int, bool) {
	s := j.s
	for i < len(s) {
		switch s[i] {
		case '<':
			if i+1 < len(s) && s[i+1] == '/' {
				k := strings.IndexByte(s[i:], '>')
				if k < 0 {
					return 0, false
				}
				return j.reach(i + k + 1), true
			}
			e, ok := j.elem(i, depth+1)
			if !ok {
				return 0, false
			}
			i = e
		case '{':
			e := j.expr(i, depth)
			if e < 0 {
				return 0, false
			}
			i = e + 1
		default:
			i++
		}
	}
	j.reach(i)
	return 0, false
}

// expr reads the {expression} at s[i] and returns the index of its "}",
// or -1. Strings, templates, comments and JSX inside it are skipped whole.
func (j *jsxScan) expr(i, depth int) int {
	s := j.s
	start := i
	d := 0
	prev := byte('{') // the last byte that was not a space: JSX follows an operator
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{':
			d++
		case c == '}':
			d--
			if d == 0 {
				j.spans = append(j.spans, [2]int{start + 1, i})
				return j.reach(i)
			}
		case c == '"' || c == '\'':
			i = skipQuoted(s, i)
		case c == '`':
			i = skipTemplate(s, i, depth)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			k := strings.IndexByte(s[i:], '\n')
			if k < 0 {
				return -1
			}
			i += k
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				return -1
			}
			i += k + 3
		case c == '<' && i+1 < len(s) && (isIdentStart(s[i+1]) || s[i+1] == '>') &&
			(strings.IndexByte("(=,:?&|[{>}", prev) >= 0 || strings.HasSuffix(s[:i], "return ")):
			// JSX inside the expression: its own expressions are found
			// when the expression is read. After an operator "<" is JSX
			// or nothing, so a failure fails the whole (never retried,
			// which would be exponential).
			n := len(j.spans)
			e, ok := j.elem(i, depth+1)
			j.spans = j.spans[:n]
			if !ok {
				return -1
			}
			i, prev = e-1, '>'
			continue
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			prev = c
		}
	}
	j.reach(i)
	return -1
}

// skipQuoted returns the index of the quote closing the string at s[i]
// (or of the line break that ends it).
func skipQuoted(s string, i int) int {
	q := s[i]
	for k := i + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case q, '\n':
			return k
		}
	}
	return len(s)
}

// skipTemplate returns the index of the backquote closing the template
// literal at s[i].
func skipTemplate(s string, i, depth int) int {
	for k := i + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '`':
			return k
		case '$':
			if k+1 < len(s) && s[k+1] == '{' {
				if depth > MaxDepth {
					return len(s)
				}
				k = scanExpr(s, k+1, depth+1)
			}
		}
	}
	return len(s)
}

// scanExpr returns the index of the "}" closing the "{" at s[open] (a
// template literal's ${…}), skipping strings, templates and comments.
func scanExpr(s string, open, depth int) int {
	d := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{':
			d++
		case c == '}':
			d--
			if d == 0 {
				return i
			}
		case c == '"' || c == '\'':
			i = skipQuoted(s, i)
		case c == '`':
			i = skipTemplate(s, i, depth)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			k := strings.IndexByte(s[i:], '\n')
			if k < 0 {
				return len(s)
			}
			i += k
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				return len(s)
			}
			i += k + 3
		}
	}
	return len(s)
}
