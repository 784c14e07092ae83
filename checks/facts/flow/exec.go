package flow

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// execRole records a command or code sink, follows what reaches it, and
// runs the command or code itself when its text is known.
func (e *engine) execRole(role *vocab.Role, api string, a *args, at facts.Span) *Val {
	kind := facts.ExecCode
	ref := "code"
	switch role.Kind {
	case "exec-shell", "exec-argv":
		kind, ref = facts.ExecShell, "cmd"
	case "deserialize":
		kind, ref = facts.Deserialize, "data"
	}
	vals := a.ref(role, ref)
	if role.Entry.Has("first-ref") {
		// python -c CODE reads its input as data; only with no -c is the
		// input the program
		for _, r := range role.Ref(ref) {
			if v := a.get(r); v != nil {
				vals = []*Val{v}
				break
			}
		}
	}
	shell := role.Kind == "exec-shell"
	if role.Kind == "exec-argv" {
		for _, sv := range a.ref(role, "shell") {
			if s, ok := sv.str(); ok && (s == "True" || s == "true" || s == "1") {
				shell = true
			}
		}
	}
	var texts []string
	var argv []string
	for _, v := range vals {
		if v == nil {
			continue
		}
		if role.Kind == "exec-argv" && !shell && len(v.El) > 0 {
			argv = append(argv, strsOf([]*Val{v})...)
			continue
		}
		if role.Kind == "exec-argv" && !shell {
			argv = append(argv, firstOr(v.S, "?"))
			continue
		}
		texts = append(texts, v.S...)
	}
	if len(argv) > 0 {
		texts = append(texts, shellJoin(argv))
	}
	if role.Entry.Has("line") {
		// the arguments are one command line, joined as they are
		// (Start-Process's -FilePath and -ArgumentList)
		var words []string
		for _, v := range vals {
			words = append(words, strsOf([]*Val{v})...)
		}
		texts = nil
		if len(words) > 0 {
			texts = []string{strings.Join(words, " ")}
		}
	}
	// encoded= flags carry the code base64-encoded (PowerShell's
	// -EncodedCommand, UTF-16LE): it runs decoded
	var decoded *Val
	for f := range splitOpt(role.Entry.Opt("encoded")) {
		for _, s := range strsOf([]*Val{a.kw[f]}) {
			if d, _, ok := decodeAs("base64", s, a); ok {
				texts = append(texts, d)
				decoded = merge(decoded, e.source(facts.Decoded, "base64 "+f, at))
			}
		}
	}
	if role.Entry.Has("defines") {
		// alias NAME=VALUE: VALUE runs whenever NAME is typed
		var kept []string
		for _, t := range texts {
			if i := strings.IndexByte(t, '='); i > 0 {
				kept = append(kept, t[i+1:])
			}
		}
		texts = kept
	}
	if strip := role.Entry.Opt("strip"); strip != "" {
		var kept []string
		for _, t := range texts {
			if strings.HasPrefix(t, strip) {
				kept = append(kept, strings.TrimPrefix(t, strip))
			}
		}
		texts = kept
	}
	dest := ""
	if len(texts) > 0 {
		dest = texts[0]
	}
	if (role.Entry.Opt("strip") != "" || role.Entry.Has("defines")) && len(texts) == 0 {
		return taintOnly(vals...)
	}
	s := e.sink(kind, api, clipLine(dest), nil, argv, at)
	for _, t := range texts {
		if r := vocab.Call("shell", path.Base(firstWord(t))); r != nil && (r.Kind == "exec-shell" || r.Kind == "exec-code") {
			e.cur.shellExec = true
			e.remoteShell(at)
		}
	}
	for _, t := range texts {
		if w := e.stored(firstWord(t)); w != nil {
			e.flows(w, s, ref)
		}
	}
	if also := role.Entry.Opt("also"); also != "" {
		e.sink(facts.SinkKind(also), api, clipLine(dest), nil, argv, at)
	}
	for _, v := range vals {
		e.flows(v, s, ref)
	}
	if decoded != nil {
		e.flows(decoded, s, ref)
	}
	if kind == facts.Deserialize {
		return taintOnly(vals...)
	}
	lang := e.lang()
	how := api
	if kind == facts.ExecShell {
		lang = "shell"
	}
	if l := role.Entry.Opt("lang"); l != "" {
		lang = l
	}
	prevStdin := e.stdin
	if l := role.Entry.Opt("stdin"); l != "" {
		e.stdin = e.source(facts.Label(l), api, at)
	}
	for _, t := range texts {
		e.nested(lang, t, at, how)
	}
	e.stdin = prevStdin
	out := taintOnly(vals...)
	out.Q = role.Entry.Opt("type") // type=T: the result is a T (exec.Cmd), its fields and methods T's
	return out
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t\n;|&"); i >= 0 {
		return s[:i]
	}
	return s
}

// stored is what the artifact wrote or downloaded to a path, or into a
// directory above it; nil when nothing was.
func (e *engine) stored(p string) *Val {
	if p == "" {
		return nil
	}
	n := vocab.NormPath(p)
	for cur := n; cur != "" && cur != "." && cur != "/"; cur = path.Dir(cur) {
		if w, ok := e.files[cur]; ok && len(w.T) > 0 {
			return w
		}
		if path.Dir(cur) == cur {
			break
		}
	}
	return nil
}

func firstOr(ss []string, d string) string {
	if len(ss) > 0 {
		return ss[0]
	}
	return d
}

func clipLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// ShellJoin renders an argument vector as a shell command.
func ShellJoin(argv []string) string { return shellJoin(argv) }

// shellJoin renders an argument vector as a shell command.
func shellJoin(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>(){}*?[]#~!") {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// nested lowers code that the artifact builds as a string and runs, and
// follows it in a scope of its own.
func (e *engine) nested(lang, src string, at facts.Span, how string) {
	if e.nest >= MaxNest || strings.TrimSpace(src) == "" || strings.Contains(src, "?") && len(src) < 3 {
		return
	}
	parse := e.p.Parsers[lang]
	if parse == nil {
		return
	}
	u := parse(at.Path, src, int32(at.Line))
	if u == nil {
		e.set.Unresolved = append(e.set.Unresolved, facts.Unresolved{At: at, What: "code run by " + how + " that does not parse"})
		return
	}
	u.flatten(int32(at.Line))
	st := &unitState{u: u, ctx: e.ctx, medium: e.cur.medium, via: append(append([]string(nil), e.cur.via...), how)}
	if lang == "shell" {
		st.medium = facts.Shell
	}
	e.nest++
	prev, prevFn, prevCtx := e.cur, e.fn, e.ctx
	e.cur, e.fn = st, u.Top
	st.scope = &scope{vars: map[string]*Val{}}
	for _, im := range u.Imports {
		e.bindImport(st, im)
	}
	e.block(u.Top.Body, st.scope)
	e.walkFuncs(st, u.Top, st.scope)
	e.cur, e.fn, e.ctx = prev, prevFn, prevCtx
	e.nest--
}

// flatten puts every line of a nested unit on the line of the call that
// runs it: its own lines mean nothing in the file.
func (u *Unit) flatten(line int32) {
	var stmts func([]*Stmt)
	var expr func(*Expr)
	expr = func(x *Expr) {
		Walk(x, func(n *Expr) bool {
			n.Line, n.Col = line, 0
			if n.Fn != nil {
				n.Fn.Line = line
				stmts(n.Fn.Body)
			}
			return true
		})
	}
	stmts = func(ss []*Stmt) {
		for _, s := range ss {
			s.Line, s.Col = line, 0
			for _, d := range s.Dst {
				expr(d)
			}
			expr(s.Val)
			stmts(s.Body)
			if s.Fn != nil {
				s.Fn.Line = line
				for _, d := range s.Fn.Decorators {
					expr(d)
				}
				stmts(s.Fn.Body)
			}
		}
	}
	stmts(u.Top.Body)
	for i := range u.Imports {
		u.Imports[i].Line = line
	}
}

// xform is a transformation: its result carries its input; a decoding of
// a known string is computed, and the result is labelled decoded.
func (e *engine) xform(role *vocab.Role, qual, method string, a *args, at facts.Span) *Val {
	in := a.ref(role, "data")
	out := taintOnly(in...)
	switch role.Arg {
	case "decode", "decompress":
		name := strings.ToLower(qual + "." + method)
		if c := role.Entry.Opt("codec"); c != "" {
			name = c
		}
		for _, s := range strsOf(in) {
			if d, codec, ok := decodeAs(name, s, a); ok {
				out.addStr(d)
				out.addTaints(e.source(facts.Decoded, codec, at).T)
			}
		}
		if len(out.S) == 0 {
			// bytes.decode("utf-8") and the like keep their input
			for _, s := range strsOf(in) {
				out.addStr(s)
			}
		}
	default:
		switch {
		case method == "join" && a.recv != nil && e.lang() == "js":
			// JavaScript's list.join(sep): the receiver is the list
			sep := ","
			if len(a.pos) > 0 {
				sep, _ = a.pos[0].str()
			}
			var parts []string
			for i := 0; i < len(a.recv.El) && i < 64; i++ {
				if f, ok := a.recv.El[itoa(i)]; ok && len(f.S) > 0 {
					parts = append(parts, f.S[0])
				} else {
					parts = append(parts, "?")
				}
			}
			if len(parts) > 0 {
				out.addStr(strings.Join(parts, sep))
			}
			out.addTaints(allTaints(a.recv, 3))
		case method == "join" && a.recv != nil && len(a.pos) > 0:
			sep, _ := a.recv.str()
			el := a.pos[0]
			if len(a.recv.S) == 0 && a.recv.Q != "" && len(a.pos) > 1 {
				// the static form: [string]::Join(sep, parts)
				sep, _ = a.pos[0].str()
				el = a.pos[1]
			}
			var parts []string
			for i := 0; i < len(el.El) && i < 64; i++ {
				if f, ok := el.El[itoa(i)]; ok && len(f.S) > 0 {
					parts = append(parts, f.S[0])
				} else {
					parts = append(parts, "?")
				}
			}
			if len(parts) > 0 {
				out.addStr(strings.Join(parts, sep))
			}
			out.addTaints(allTaints(el, 3))
		case method == "replace" && a.recv != nil && len(a.pos) >= 2:
			old, ok1 := a.pos[0].str()
			nw, ok2 := a.pos[1].str()
			for _, s := range a.recv.S {
				if ok1 && ok2 {
					out.addStr(strings.ReplaceAll(s, old, nw))
				}
			}
		case role.Entry.Opt("sep") == "space":
			var parts []string
			for _, v := range a.pos {
				parts = append(parts, firstOr(v.S, "?"))
			}
			if len(parts) > 0 {
				out.addStr(strings.Join(parts, " "))
			}
			if in := a.kw[stdinKey]; in != nil {
				out.addTaints(allTaints(in, 3))
			}
		case method == "reverse" || qual == "reversed":
			for _, s := range strsOf(in) {
				out.addStr(reverse(s))
			}
		case role.Entry.Opt("files") == "*":
			// cat, grep, cut, tar: the words are files and patterns, not
			// the output; what passes through is the standard input
			if in := a.kw[stdinKey]; in != nil {
				for _, s := range in.S {
					out.addStr(s)
				}
			}
		default:
			for _, s := range strsOf(in) {
				out.addStr(s)
			}
		}
		if v := a.recv; v != nil {
			out.addTaints(allTaints(v, 3))
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// decodeAs decodes s the way the named call would; ok only when the result
// is text.
func decodeAs(name, s string, a *args) (string, string, bool) {
	try := func(b []byte, err error, codec string) (string, string, bool) {
		if err != nil || len(b) == 0 {
			return "", "", false
		}
		if d, ok := inflate(b); ok {
			b, codec = d, codec+"→zlib"
		}
		if d, ok := utf16LE(b); ok {
			b, codec = d, codec+"→utf16le"
		}
		if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
			return "", "", false
		}
		return string(b), codec, true
	}
	t := strings.TrimSpace(s)
	switch {
	case name == "reverse":
		return reverse(s), "reverse", true
	case name == "zlib":
		if d, ok := inflate([]byte(s)); ok && utf8.Valid(d) {
			return string(d), "zlib", true
		}
		return "", "", false
	case strings.Contains(name, "b32"), strings.Contains(name, "base32"):
		b, err := base32.StdEncoding.DecodeString(padTo(t, 8))
		return try(b, err, "base32")
	case strings.Contains(name, "hex"), strings.Contains(name, "unhexlify"), strings.Contains(name, "b16"):
		b, err := hex.DecodeString(t)
		return try(b, err, "hex")
	case strings.Contains(name, "unquote"), strings.Contains(name, "decodeuri"), strings.Contains(name, "unescape") && !strings.Contains(name, "html"):
		d, err := url.PathUnescape(t)
		if err != nil || d == t {
			return "", "", false
		}
		return d, "url", true
	case strings.Contains(name, "fromcharcode"), strings.Contains(name, "fromcodepoint"):
		return "", "", false
	case strings.Contains(name, "codecs.decode"):
		for _, v := range a.pos[1:] {
			if c, ok := v.str(); ok && strings.Contains(strings.ToLower(c), "rot") {
				return rot13(t), "rot13", true
			}
		}
		return "", "", false
	case strings.Contains(name, "decompress"), strings.Contains(name, "inflate"), strings.Contains(name, "gunzip"):
		if d, ok := inflate([]byte(s)); ok && utf8.Valid(d) {
			return string(d), "zlib", true
		}
		return "", "", false
	case strings.Contains(name, "buffer.from"):
		enc := ""
		if len(a.pos) > 1 {
			enc, _ = a.pos[1].str()
		}
		switch strings.ToLower(enc) {
		case "base64", "base64url":
			b, err := b64(t)
			return try(b, err, "base64")
		case "hex":
			b, err := hex.DecodeString(t)
			return try(b, err, "hex")
		}
		return "", "", false
	case strings.HasSuffix(name, ".decode") && !strings.Contains(name, "b64") && !strings.Contains(name, "base64"):
		return "", "", false
	}
	b, err := b64(t)
	return try(b, err, "base64")
}

// utf16LE decodes text stored as UTF-16LE (Windows' "Unicode", what
// PowerShell's -EncodedCommand holds): ok when every other byte is zero
// as ASCII-range text has it.
func utf16LE(b []byte) ([]byte, bool) {
	if len(b) < 2 || len(b)%2 != 0 {
		return nil, false
	}
	zeros := 0
	for i := 1; i < len(b); i += 2 {
		if b[i] == 0 {
			zeros++
		}
	}
	if zeros*4 < len(b)/2*3 {
		return nil, false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return []byte(string(utf16.Decode(u))), true
}

func b64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

func padTo(s string, n int) string {
	if r := len(s) % n; r != 0 {
		s += strings.Repeat("=", n-r)
	}
	return s
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// inflate undoes zlib or gzip compression, bounded.
func inflate(b []byte) ([]byte, bool) {
	const limit = 1 << 20
	var r io.Reader
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		g, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, false
		}
		r = g
	} else if len(b) > 2 && b[0] == 0x78 {
		z, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, false
		}
		r = z
	} else {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil && len(out) == 0 {
		return nil, false
	}
	return out, true
}

// remoteShell records a remote shell once a program both binds a socket
// to its standard streams and runs a shell.
func (e *engine) remoteShell(at facts.Span) {
	st := e.cur
	if st.sockRedirect && st.shellExec && !st.remoteShell {
		st.remoteShell = true
		e.effect(facts.RemoteShell, "a socket bound to standard streams and a shell started", at)
	}
}
