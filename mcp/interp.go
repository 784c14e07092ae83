package mcp

import (
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
)

// Hole stands in a partly read string for a substitution static reading
// could not follow (a value read from the environment, a call's result).
const Hole = "{…}"

// maxInterp bounds the substitutions read in one literal.
const maxInterp = 64

// interpolated reads an f-string (Python) or a template literal with
// substitutions (JS): the literal text with each substitution folded where
// it folds, both branches of a conditional where it is one, and Hole
// where neither. complete is false when a Hole was left. ok is false when
// ts is not one such literal.
func interpolated(f *fold.File, ts []lex.Token) (text string, complete, ok bool) {
	if len(ts) != 1 {
		return "", false, false
	}
	t := ts[0]
	var body string
	var raw, js bool
	switch {
	case t.Kind == lex.Template && len(t.Text) >= 2 && strings.HasSuffix(t.Text, "`"):
		body, js = t.Text[1:len(t.Text)-1], true
	case t.Kind == lex.String:
		q := strings.IndexAny(t.Text, "\"'")
		if q < 0 {
			return "", false, false
		}
		prefix := strings.ToLower(t.Text[:q])
		if !strings.ContainsRune(prefix, 'f') {
			return "", false, false
		}
		raw = strings.ContainsRune(prefix, 'r')
		b := t.Text[q:]
		delim := b[:1]
		if strings.HasPrefix(b, delim+delim+delim) && len(b) >= 6 {
			delim = b[:3]
		}
		if len(b) < 2*len(delim) || !strings.HasSuffix(b, delim) {
			return "", false, false
		}
		body = b[len(delim) : len(b)-len(delim)]
	default:
		return "", false, false
	}
	var out, lit strings.Builder
	flush := func() {
		out.WriteString(unescape(lit.String(), raw, js))
		lit.Reset()
	}
	complete = true
	n := 0
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case !js && (c == '{' || c == '}') && i+1 < len(body) && body[i+1] == c:
			lit.WriteByte(c) // {{ and }} are literal braces
			i++
		case js && c == '\\' && i+1 < len(body):
			lit.WriteString(body[i : i+2])
			i++
		case !js && c == '{' || js && c == '$' && i+1 < len(body) && body[i+1] == '{':
			open := i
			if js {
				open++
			}
			end := closeBrace(body, open)
			if end < 0 || n >= maxInterp {
				return "", false, false
			}
			n++
			flush()
			v, ok := substitution(f, body[open+1:end], js)
			if !ok {
				v, complete = Hole, false
			}
			out.WriteString(v)
			i = end
		default:
			lit.WriteByte(c)
		}
		if out.Len()+lit.Len() > fold.MaxOutput {
			return "", false, false
		}
	}
	flush()
	return out.String(), complete, true
}

// closeBrace finds the brace closing the one at open, past nested
// brackets and quoted strings.
func closeBrace(s string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{' || c == '[' || c == '(':
			depth++
		case c == '}' || c == ']' || c == ')':
			depth--
			if depth == 0 {
				if c != '}' {
					return -1
				}
				return i
			}
		}
	}
	return -1
}

// substitution folds one substitution's expression; in Python its
// conversion (!r) and format spec (:>10) are dropped first.
func substitution(f *fold.File, expr string, js bool) (string, bool) {
	var toks []lex.Token
	if js {
		toks = lex.Code(lex.JS(expr))
	} else {
		toks = lex.Code(lex.Python(expr))
		for k, t := range toks {
			if t.Depth == 0 && (t.Text == "!" || t.Text == ":") {
				toks = toks[:k]
				break
			}
		}
	}
	if v, ok := f.Eval(toks, 0); ok {
		return v, true
	}
	// A conditional: either branch may be what the model reads.
	var a, b []lex.Token
	if js {
		q := index(toks, "?")
		c := index(toks, ":")
		if q < 0 || c < q {
			return "", false
		}
		a, b = toks[q+1:c], toks[c+1:]
	} else {
		i, e := index(toks, "if"), index(toks, "else")
		if i < 0 || e < i {
			return "", false
		}
		a, b = toks[:i], toks[e+1:]
	}
	va, oka := branch(f, a)
	vb, okb := branch(f, b)
	if !oka || !okb {
		return "", false
	}
	return strings.TrimSpace(va + " " + vb), true
}

// branch folds one branch of a conditional; an empty literal folds to "".
func branch(f *fold.File, ts []lex.Token) (string, bool) {
	if len(ts) == 1 && (ts[0].Kind == lex.String || ts[0].Kind == lex.Template) {
		v, ok := fold.Unquote(ts[0])
		return v, ok
	}
	return f.Eval(ts, 0)
}

func index(ts []lex.Token, text string) int {
	for k, t := range ts {
		if t.Depth == 0 && t.Text == text {
			return k
		}
	}
	return -1
}

// unescape decodes a literal segment's escapes.
func unescape(s string, raw, js bool) string {
	if raw || !strings.ContainsRune(s, '\\') {
		return s
	}
	if js {
		s = strings.NewReplacer("\\`", "`", `\$`, "$").Replace(s)
	}
	s = strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(s)
	q := `"` + strings.NewReplacer(`"`, `\"`, "\n", `\n`).Replace(s) + `"`
	if v, err := strconv.Unquote(q); err == nil {
		return v
	}
	return lex.Unquote(`"` + s + `"`)
}
