// Package fold is the folding and decoding engine of CHECKS §4.3, reduced
// to what the code checks need first: it reads a JS/TS or Python token
// stream, records file-level string constants, and evaluates expressions
// built from literals, constants, concatenation, join, reversal, char
// codes and base64/hex decoding into derived strings, to a bounded depth
// and size. It also finds calls with their argument tokens.
package fold

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/metahub-ai/attest/checks/lex"
)

// Limits of folding.
const (
	MaxLayers = 4
	MaxOutput = 1 << 20
)

// File is a tokenized source file with its constants.
type File struct {
	Lang   string // js or python
	Toks   []lex.Token
	Consts map[string]string
	// Imports maps a local name to the file-level name it imports from
	// another module: import {A as B} from "./x", const {A} =
	// require("./x"), from .x import A.
	Imports map[string]Import
	// Returns maps a function that takes no arguments and whose first
	// statement returns an expression to that expression's tokens: one
	// level of local function returns (CHECKS §4.3).
	Returns map[string][]lex.Token

	// calls is computed once: four checks read the calls of every file.
	callsOnce sync.Once
	calls     []Call
}

// Import is a name imported from a module (Spec as written).
type Import struct{ Spec, Name string }

// Parse tokenizes src and collects its string constants.
func Parse(lang, src string) *File {
	f := &File{Lang: lang, Consts: map[string]string{}, Imports: map[string]Import{}, Returns: map[string][]lex.Token{}}
	if lang == "python" {
		f.Toks = lex.Code(lex.Python(src))
	} else {
		f.Toks = lex.Code(lex.JS(src))
	}
	f.findImports()
	f.findReturns()
	f.fold()
	return f
}

// findReturns records zero-argument functions whose first statement is a
// return: function f() { return X }, const f = () => X,
// const f = () => { return X }, def f(): return X.
func (f *File) findReturns() {
	ts := f.Toks
	body := func(open int) []lex.Token { // { return X; ... }
		if open >= len(ts) || ts[open].Text != "{" || open+1 >= len(ts) || ts[open+1].Text != "return" {
			return nil
		}
		end := exprEnd(ts, open+2)
		return ts[open+2 : end]
	}
	for i := 0; i+3 < len(ts); i++ {
		t := ts[i]
		if t.Kind != lex.Ident {
			continue
		}
		switch {
		case f.Lang == "js" && t.Text == "function" && ts[i+1].Kind == lex.Ident && ts[i+2].Text == "(" && ts[i+3].Text == ")":
			if e := body(i + 4); len(e) > 0 {
				f.Returns[ts[i+1].Text] = e
			}
		case f.Lang == "js" && (t.Text == "const" || t.Text == "let" || t.Text == "var") && ts[i+1].Kind == lex.Ident && ts[i+2].Text == "=" &&
			i+5 < len(ts) && ts[i+3].Text == "(" && ts[i+4].Text == ")" && ts[i+5].Text == "=>" && i+6 < len(ts):
			if ts[i+6].Text == "{" {
				if e := body(i + 6); len(e) > 0 {
					f.Returns[ts[i+1].Text] = e
				}
			} else if end := exprEnd(ts, i+6); end > i+6 {
				f.Returns[ts[i+1].Text] = ts[i+6 : end]
			}
		case f.Lang == "python" && t.Text == "def" && ts[i+1].Kind == lex.Ident && ts[i+2].Text == "(" && ts[i+3].Text == ")":
			j := i + 4
			for j < len(ts) && ts[j].Text != ":" && ts[j].Line == t.Line { // past a return annotation
				j++
			}
			if j+2 < len(ts) && ts[j].Text == ":" && ts[j+1].Text == "return" {
				end := j + 2
				for end < len(ts) && ts[end].Line == ts[j+1].Line {
					end++
				}
				f.Returns[ts[i+1].Text] = ts[j+2 : end]
			}
		}
	}
}

// fold records the file-level constants, three passes deep for constants
// built from other constants.
func (f *File) fold() {
	for pass := 0; pass < 3; pass++ {
		for i := 0; i+2 < len(f.Toks); i++ {
			t := f.Toks[i]
			if t.Kind != lex.Ident || f.Toks[i+1].Text != "=" || t.Depth != 0 {
				continue
			}
			if i > 0 && f.Toks[i-1].Text == "." {
				continue
			}
			end := exprEnd(f.Toks, i+2)
			if v, ok := f.Eval(f.Toks[i+2:end], 0); ok {
				f.Consts[t.Text] = v
			}
		}
	}
}

// findImports records named imports from modules.
func (f *File) findImports() {
	ts := f.Toks
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.Kind != lex.Ident || t.Depth != 0 || !t.LineStart {
			continue
		}
		switch {
		case f.Lang == "js" && t.Text == "import" && i+1 < len(ts) && ts[i+1].Text == "{":
			// import {A, B as C} from "./x"
			end := closing(ts, i+1)
			if end+2 < len(ts) && ts[end+1].Text == "from" && ts[end+2].Kind == lex.String {
				spec, _ := Unquote(ts[end+2])
				f.bind(ts[i+2:end], spec, "as")
			}
		case f.Lang == "js" && (t.Text == "const" || t.Text == "let" || t.Text == "var") && i+1 < len(ts) && ts[i+1].Text == "{":
			// const {A, B: C} = require("./x")
			end := closing(ts, i+1)
			if end+5 < len(ts) && ts[end+1].Text == "=" && ts[end+2].Text == "require" && ts[end+3].Text == "(" && ts[end+4].Kind == lex.String {
				spec, _ := Unquote(ts[end+4])
				f.bind(ts[i+2:end], spec, ":")
			}
		case f.Lang == "python" && t.Text == "from":
			// from .x import A, B as C
			j := i + 1
			var spec strings.Builder
			for j < len(ts) && ts[j].Line == t.Line && ts[j].Text != "import" {
				spec.WriteString(ts[j].Text)
				j++
			}
			if j < len(ts) && ts[j].Text == "import" {
				k := j + 1
				if k < len(ts) && ts[k].Text == "(" {
					k++
				}
				end := k
				for end < len(ts) && (ts[end].Line == t.Line || ts[k-1].Text == "(") && ts[end].Text != ")" {
					end++
				}
				f.bind(ts[k:end], spec.String(), "as")
			}
		}
	}
}

// bind records a list of names (A, B as C / A, B: C) imported from spec.
func (f *File) bind(list []lex.Token, spec, rename string) {
	for _, part := range splitArgs(list) {
		if len(part) == 0 || part[0].Kind != lex.Ident {
			continue
		}
		name, local := part[0].Text, part[0].Text
		if len(part) == 3 && part[1].Text == rename && part[2].Kind == lex.Ident {
			local = part[2].Text
		} else if len(part) != 1 {
			continue
		}
		f.Imports[local] = Import{Spec: spec, Name: name}
	}
}

// Link gives each file the constants it imports from the other files
// (path → parsed file), then folds its constants again so that values
// built from imported parts are derived too. Two rounds follow a constant
// re-exported once.
func Link(files map[string]*File) {
	for round := 0; round < 2; round++ {
		for p, f := range files {
			changed := false
			for local, im := range f.Imports {
				if _, own := f.Consts[local]; own {
					continue
				}
				if from := resolveModule(files, p, f.Lang, im.Spec); from != nil {
					if v, ok := from.Consts[im.Name]; ok {
						f.Consts[local] = v
						changed = true
					}
				}
			}
			if changed {
				f.fold()
			}
		}
	}
}

// resolveModule finds the file a module spec names: for JS a relative
// path with Node's and TypeScript's extensions or an index file, for
// Python a dotted module, relative (leading dots) or from the root, src/
// or the importing file's directory.
func resolveModule(files map[string]*File, from, lang, spec string) *File {
	var cands []string
	if lang == "js" {
		if !strings.HasPrefix(spec, ".") {
			return nil
		}
		p := path.Join(path.Dir(from), spec)
		base := strings.TrimSuffix(p, path.Ext(p))
		cands = []string{p}
		for _, ext := range []string{".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts"} {
			cands = append(cands, p+ext, base+ext, p+"/index"+ext)
		}
	} else {
		rest := strings.TrimLeft(spec, ".")
		dots := len(spec) - len(rest)
		rel := strings.ReplaceAll(rest, ".", "/")
		var bases []string
		if dots > 0 {
			dir := path.Dir(from)
			for range dots - 1 {
				dir = path.Dir(dir)
			}
			bases = []string{dir}
		} else {
			bases = []string{".", "src", path.Dir(from)}
		}
		for _, b := range bases {
			cands = append(cands, path.Join(b, rel)+".py", path.Join(b, rel, "__init__.py"))
		}
	}
	for _, c := range cands {
		if f, ok := files[c]; ok && f != nil {
			return f
		}
	}
	return nil
}

// exprEnd finds the end of an expression starting at i: a ; , ) or a new
// line at the same depth.
func exprEnd(ts []lex.Token, i int) int {
	if i >= len(ts) {
		return i
	}
	depth, line := ts[i].Depth, ts[i].Line
	for j := i; j < len(ts); j++ {
		t := ts[j]
		if t.Depth < depth || t.Depth == depth && (t.Text == ";" || t.Text == ",") || t.Depth == depth && t.Line != line && j > i && !continues(ts[j-1]) {
			return j
		}
	}
	return len(ts)
}

func continues(t lex.Token) bool {
	return t.Text == "+" || t.Text == "(" || t.Text == "[" || t.Text == "," || t.Text == "."
}

// Unquote decodes a string literal token, including \x, \u and octal
// escapes; f-strings and template literals with substitutions do not
// fold, and an unterminated literal does not either.
func Unquote(t lex.Token) (string, bool) {
	s := t.Text
	if t.Kind == lex.Template {
		if len(s) < 2 || s[len(s)-1] != '`' || strings.Contains(s, "${") {
			return "", false
		}
		return s[1 : len(s)-1], true
	}
	if t.Kind != lex.String {
		return "", false
	}
	q := strings.IndexAny(s, "\"'")
	if q < 0 {
		return "", false
	}
	prefix := strings.ToLower(s[:q])
	if strings.ContainsRune(prefix, 'f') {
		return "", false // an f-string interpolates
	}
	body := s[q:]
	delim := body[:1]
	if strings.HasPrefix(body, delim+delim+delim) && len(body) >= 6 {
		delim = body[:3]
	}
	if len(body) < 2*len(delim) || !strings.HasSuffix(body, delim) {
		return "", false
	}
	inner := body[len(delim) : len(body)-len(delim)]
	if strings.ContainsRune(prefix, 'r') {
		return inner, true
	}
	if v, err := strconv.Unquote(`"` + strings.ReplaceAll(strings.ReplaceAll(inner, `\'`, `'`), `"`, `\"`) + `"`); err == nil {
		return v, true
	}
	return lex.Unquote(s), true
}

// Eval folds an expression to a string.
func (f *File) Eval(ts []lex.Token, layer int) (string, bool) {
	if layer > MaxLayers || len(ts) == 0 {
		return "", false
	}
	var out strings.Builder
	ok := false
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		var piece string
		var got bool
		switch {
		case t.Kind == lex.String || t.Kind == lex.Template:
			piece, got = Unquote(t)
			i = f.suffix(ts, i, &piece)
		case t.Kind == lex.Ident && f.Consts[t.Text] != "" && (i+1 >= len(ts) || ts[i+1].Text != "("):
			piece, got = f.Consts[t.Text], true
			i = f.suffix(ts, i, &piece)
		case t.Text == "+":
			continue
		case t.Text == "(" && i == 0:
			end := closing(ts, i)
			piece, got = f.Eval(ts[i+1:end], layer+1)
			i = end
		case t.Kind == lex.Ident:
			name, args, end := callAt(ts, i)
			if end < 0 {
				return "", false
			}
			piece, got = f.call(name, args, layer)
			i = end
			if got {
				i = f.suffix(ts, i, &piece)
			}
		case t.Text == "[":
			end := closing(ts, i)
			piece, got = f.list(ts, i, end, layer)
			i = end
			if got {
				i = f.suffix(ts, i, &piece)
			}
		default:
			return "", false
		}
		if !got {
			return "", false
		}
		out.WriteString(piece)
		ok = true
		if out.Len() > MaxOutput {
			return "", false
		}
	}
	return out.String(), ok
}

// list folds [..].join("") and ["a","b"] in JS, or a list joined later.
func (f *File) list(ts []lex.Token, start, end int, layer int) (string, bool) {
	var parts []string
	for _, seg := range splitArgs(ts[start+1 : end]) {
		if len(seg) == 1 && seg[0].Kind == lex.Number {
			parts = append(parts, seg[0].Text)
			continue
		}
		v, ok := f.Eval(seg, layer+1)
		if !ok {
			return "", false
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "\x00"), true
}

// suffix applies method chains after a value: .join(sep) on a list,
// .reverse/[::-1], .decode(), .split(”).reverse().join(”).
func (f *File) suffix(ts []lex.Token, i int, v *string) int {
	for i+1 < len(ts) {
		switch {
		case ts[i+1].Text == "[" && i+5 < len(ts) && ts[i+2].Text == ":" && ts[i+3].Text == ":" && ts[i+4].Text == "-" && ts[i+5].Text == "1":
			*v = reverse(*v)
			i += 6
			continue
		case ts[i+1].Text == "." && i+2 < len(ts):
			m := ts[i+2].Text
			_, args, end := callAt(ts, i+2)
			if end < 0 {
				return i
			}
			switch m {
			case "join":
				if len(args) != 1 {
					return i
				}
				a, ok := f.Eval(args[0], 0)
				if !ok {
					return i
				}
				if strings.Contains(a, "\x00") || len(args[0]) > 0 && args[0][0].Text == "[" {
					*v = strings.ReplaceAll(a, "\x00", *v) // Python: sep.join(list)
				} else {
					*v = strings.ReplaceAll(*v, "\x00", a) // JS: list.join(sep)
				}
			case "reverse":
				parts := strings.Split(*v, "\x00")
				for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
					parts[a], parts[b] = parts[b], parts[a]
				}
				*v = strings.Join(parts, "\x00")
			case "split":
				if len(args) == 1 {
					if sep, ok := f.Eval(args[0], 0); ok && sep == "" {
						*v = strings.Join(strings.Split(*v, ""), "\x00")
					}
				}
			case "decode", "toString", "strip", "trim":
			case "repeat":
				if len(args) == 1 && args[0][0].Kind == lex.Number {
					if n, err := strconv.Atoi(args[0][0].Text); err == nil && n >= 0 && n*len(*v) <= MaxOutput {
						*v = strings.Repeat(*v, n)
					}
				}
			default:
				return i
			}
			i = end
			continue
		}
		return i
	}
	return i
}

func reverse(s string) string {
	r := []rune(s)
	for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
		r[a], r[b] = r[b], r[a]
	}
	return string(r)
}

// call folds decoding and char-code calls.
func (f *File) call(name string, args [][]lex.Token, layer int) (string, bool) {
	if ret, ok := f.Returns[name]; ok && len(args) == 0 {
		return f.Eval(ret, layer+1)
	}
	base := name[strings.LastIndex(name, ".")+1:]
	arg := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		return f.Eval(args[i], layer+1)
	}
	switch base {
	case "b64decode", "atob", "standard_b64decode", "urlsafe_b64decode", "decodebytes", "b64decodestring":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		return Base64(s)
	case "from":
		if strings.HasSuffix(name, "Buffer.from") && len(args) == 2 {
			enc, _ := arg(1)
			s, ok := arg(0)
			if !ok {
				return "", false
			}
			switch enc {
			case "base64", "base64url":
				return Base64(s)
			case "hex":
				b, err := hex.DecodeString(s)
				return string(b), err == nil
			}
			return s, true
		}
	case "fromhex", "unhexlify", "a2b_hex":
		s, ok := arg(0)
		if !ok {
			return "", false
		}
		b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
		return string(b), err == nil
	case "fromCharCode", "chr", "bytes", "bytearray":
		var b strings.Builder
		for _, a := range args {
			if len(a) == 1 && a[0].Kind == lex.Number {
				n, err := strconv.ParseInt(a[0].Text, 0, 32)
				if err != nil {
					return "", false
				}
				b.WriteRune(rune(n))
				continue
			}
			if len(a) > 0 && a[0].Text == "[" {
				v, ok := f.Eval(a, layer+1)
				if !ok {
					return "", false
				}
				for _, part := range strings.Split(v, "\x00") {
					n, err := strconv.ParseInt(part, 0, 32)
					if err != nil {
						return "", false
					}
					b.WriteRune(rune(n))
				}
				continue
			}
			return "", false
		}
		return b.String(), b.Len() > 0
	case "str", "String":
		return arg(0)
	}
	return "", false
}

// Base64 decodes standard or URL-safe base64, padded or not.
func Base64(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return string(b), true
		}
	}
	return "", false
}

// Call is a call site: the dotted name called and its argument tokens.
type Call struct {
	Name string
	Args [][]lex.Token
	Line int
	// Index is the position of the call's first token, End of its
	// closing parenthesis.
	Index, End int
}

// Chained returns the arguments of a call made on this call's result,
// getattr(o, "exec")(payload), or nil.
func (f *File) Chained(c Call) [][]lex.Token {
	if c.End+1 >= len(f.Toks) || f.Toks[c.End+1].Text != "(" {
		return nil
	}
	end := closing(f.Toks, c.End+1)
	if end >= len(f.Toks) {
		return nil
	}
	return splitArgs(f.Toks[c.End+2 : end])
}

// Calls lists every call of the file: name(...) and a.b.c(...). The slice
// is shared by every check of the run; callers must not modify it.
func (f *File) Calls() []Call {
	f.callsOnce.Do(func() { f.calls = f.findCalls() })
	return f.calls
}

func (f *File) findCalls() []Call {
	var out []Call
	for i := 0; i < len(f.Toks); i++ {
		if f.Toks[i].Kind != lex.Ident || i > 0 && f.Toks[i-1].Text == "." {
			continue
		}
		name, args, end := callAt(f.Toks, i)
		if end < 0 {
			continue
		}
		out = append(out, Call{Name: name, Args: args, Line: int(f.Toks[i].Line), Index: i, End: end})
	}
	return out
}

// callAt reads name(.name)*(args) at i; end is the index of the closing
// parenthesis, or -1.
func callAt(ts []lex.Token, i int) (string, [][]lex.Token, int) {
	name := ts[i].Text
	j := i + 1
	for j+1 < len(ts) && ts[j].Text == "." && ts[j+1].Kind == lex.Ident {
		name += "." + ts[j+1].Text
		j += 2
	}
	if j >= len(ts) || ts[j].Text != "(" {
		return name, nil, -1
	}
	end := closing(ts, j)
	if end >= len(ts) {
		return name, nil, -1
	}
	return name, splitArgs(ts[j+1 : end]), end
}

func closing(ts []lex.Token, open int) int {
	depth := 0
	for k := open; k < len(ts); k++ {
		switch ts[k].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(ts)
}

func splitArgs(ts []lex.Token) [][]lex.Token {
	var out [][]lex.Token
	depth, start := 0, 0
	for k, t := range ts {
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, ts[start:k])
				start = k + 1
			}
		}
	}
	if start < len(ts) {
		out = append(out, ts[start:])
	}
	return out
}

// Closing returns the index of the bracket that closes ts[open], or
// len(ts) when it is never closed.
func Closing(ts []lex.Token, open int) int { return closing(ts, open) }

// SplitArgs splits tokens at the commas outside brackets.
func SplitArgs(ts []lex.Token) [][]lex.Token { return splitArgs(ts) }
