package flow

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

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
	// A word of an argument vector that carries a value, or is not known,
	// is handed to the command as a variable bound to that value, so what
	// the command does with it keeps its sources.
	binds := map[string]*Val{}
	var line []string
	var program *Val // an argument vector's first word: what is run
	addWord := func(v *Val) {
		if v == nil {
			return
		}
		if program == nil {
			program = v
		}
		if len(v.T) == 0 && len(v.S) > 0 {
			argv = append(argv, v.S[0])
			line = append(line, shellJoin([]string{v.S[0]}))
			return
		}
		argv = append(argv, firstOr(v.S, "?"))
		name := "__attest_arg" + strconv.Itoa(len(binds))
		binds[name] = v
		line = append(line, `"$`+name+`"`)
	}
	for _, v := range vals {
		if v == nil {
			continue
		}
		if role.Kind == "exec-argv" && !shell && len(v.El) > 0 {
			for _, el := range ordered(v) {
				addWord(el)
			}
			continue
		}
		if role.Kind == "exec-argv" && !shell {
			addWord(v)
			continue
		}
		texts = append(texts, v.S...)
	}
	if len(argv) > 0 {
		texts = append(texts, strings.Join(line, " "))
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
		if len(argv) > 0 && len(binds) > 0 && dest == strings.Join(line, " ") {
			dest = shellJoin(argv) // shown with "?" for the bound words
		}
	}
	if (role.Entry.Opt("strip") != "" || role.Entry.Has("defines")) && len(texts) == 0 {
		return taintOnly(vals...)
	}
	s := e.sink(kind, api, clipLine(dest), nil, argv, at)
	for _, t := range texts {
		if r := vocab.Call("shell", path.Base(firstWord(t))); r != nil && (r.Kind == "exec-shell" || r.Kind == "exec-code") {
			if !e.cur.shellExec {
				e.cur.shellExec, e.cur.shellAt = true, at.Line
			}
			e.remoteShell(at)
		}
	}
	for _, t := range texts {
		if w := e.stored(firstWord(t)); w != nil {
			e.flows(w, s, ref)
		}
		if remoteShare(firstWord(t)) {
			e.flows(e.source(facts.RemoteContent, firstWord(t), at), s, ref)
		}
	}
	// path= is a script file the interpreter runs (python3 /tmp/x.py):
	// what the artifact wrote or downloaded there runs
	// (unless one of path-unless= is given: python -m MOD FILE reads FILE
	// as data)
	scripts := strsOf(a.ref(role, "path"))
	if u := role.Entry.Opt("path-unless"); u != "" && hasAny(a, splitOpt(u)) {
		scripts = nil
	}
	for _, p := range scripts {
		if w := e.stored(p); w != nil {
			e.flows(w, s, ref)
		}
	}
	// fd= names the arguments that bind the command's standard streams
	// (stdin=sock.fileno()): a descriptor redirect of what they hold
	for f := range splitOpt(role.Entry.Opt("fd")) {
		if v := a.kw[f]; v != nil && len(v.T) > 0 {
			e.flows(v, e.sink(facts.FDRedirect, api, f, nil, nil, at), "data")
		}
	}
	if also := role.Entry.Opt("also"); also != "" {
		e.sink(facts.SinkKind(also), api, clipLine(dest), nil, argv, at)
	}
	if len(argv) > 0 && len(texts) == 1 && program != nil {
		// an argument vector runs its first word; the other words are the
		// program's arguments, followed into it as its variables (bash -c
		// WORD runs WORD, pip install WORD does not)
		e.flows(program, s, ref)
	} else {
		for _, v := range vals {
			e.flows(v, s, ref)
		}
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
	// in= is what the command reads on its standard input
	// (subprocess.run(cmd, input=data)): the nested program reads it
	if ins := a.ref(role, "in"); len(ins) > 0 {
		e.stdin = merge(append([]*Val{e.stdin}, ins...)...)
	}
	var output *Val
	before := len(e.set.Sinks)
	prevHoles := e.holes
	if in := taintOnly(vals...); lang == "shell" && len(binds) == 0 && len(in.T) > 0 {
		e.holes = in
	}
	for _, t := range texts {
		if lang == "shell" && len(binds) > 0 {
			e.argBinds = binds
		}
		output = merge(output, e.nested(lang, t, at, how))
		e.argBinds = nil
	}
	e.holes = prevHoles
	// The command's text is folded to strings, its unknown parts "?": what
	// the artifact put into those parts reaches what the command sends
	// with them (nslookup "$TOKEN.x.example"), as far as one command
	// shows.
	if in := taintOnly(vals...); len(in.T) > 0 {
		// each word that carries a value, and whether it is a credential
		// header ("Authorization: Bearer $TOKEN")
		var words []*Val
		for _, v := range vals {
			if v == nil {
				continue
			}
			if els := ordered(v); len(v.El) > 0 {
				words = append(words, els...)
			} else {
				words = append(words, v)
			}
		}
		for _, ns := range e.set.Sinks[before:] {
			switch ns.Kind {
			case facts.NetSend, facts.DNS, facts.Mail, facts.NetConnect:
				if !strings.Contains(ns.Dest, "?") && !slices.ContainsFunc(ns.Args, func(a string) bool { return strings.Contains(a, "?") }) {
					continue
				}
				for _, w := range words {
					arg := "data"
					if headerCredential(w) {
						arg = "credential"
					}
					e.flowsAs(w, ns, arg, facts.SameScope)
				}
			}
		}
	}
	// a script the artifact wrote and then runs is followed as code: by
	// its interpreter (python3 /tmp/x.py), or as a shell script named as
	// the command (bash /tmp/x.sh)
	for _, p := range scripts {
		e.runWritten(lang, p, at)
	}
	if kind == facts.ExecShell {
		for _, t := range texts {
			e.runWritten("shell", firstWord(t), at)
		}
	}
	e.stdin = prevStdin
	out := taintOnly(vals...)
	if output != nil {
		// what the command printed is what the call hands back
		out.addTaints(output.T)
	}
	out.Q = role.Entry.Opt("type") // type=T: the result is a T (exec.Cmd), its fields and methods T's
	return out
}

// runWritten follows the text the artifact wrote to a path as a program
// of lang.
func (e *engine) runWritten(lang, p string, at facts.Span) {
	if p == "" {
		return
	}
	w := e.files[vocab.NormPath(p)]
	if w == nil {
		return
	}
	for _, src := range w.S {
		e.nested(lang, src, at, "run from "+p)
	}
}

// remoteShare reports a UNC path on an internet host (\\host.example\share,
// \\host@SSL\DavWWWRoot\…, or the same with forward slashes): Windows
// fetches what it names over SMB or WebDAV, so running it runs a download.
func remoteShare(p string) bool {
	p = strings.ReplaceAll(strings.Trim(p, `"'`), `\`, "/")
	rest, ok := strings.CutPrefix(p, "//")
	if !ok {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	host, port, _ := strings.Cut(host, "@")
	port = strings.ToLower(port)
	return strings.Contains(host, ".") && !strings.HasSuffix(strings.ToLower(host), ".local") || port == "ssl" || port == "443" || strings.Contains(strings.ToLower(rest), "davwwwroot")
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
	if len(p) > 2 && p[1] == ':' && (p[2] == '/' || p[2] == '\\') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') {
		// a path on a drive a share was mapped to (net use Z: \\host\share)
		if w, ok := e.files[strings.ToLower(p[:2])]; ok && len(w.T) > 0 {
			return w
		}
	}
	n := vocab.NormPath(p)
	for cur := n; cur != "" && cur != "." && cur != "/"; cur = path.Dir(cur) {
		if strings.Trim(cur, "?/") == "" {
			break // a path of unknown parts holds nothing known: "?/.env" is not inside "?"
		}
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
// follows it in a scope of its own. It returns what the code outputs: for
// a shell program, the output of its top-level commands (what
// check_output or a command substitution hands back).
func (e *engine) nested(lang, src string, at facts.Span, how string) *Val {
	if e.nest >= MaxNest || strings.TrimSpace(src) == "" || strings.Contains(src, "?") && len(src) < 3 {
		return nil
	}
	parse := e.p.Parsers[lang]
	if parse == nil {
		return nil
	}
	u := parse(at.Path, src, int32(at.Line))
	if u == nil {
		e.set.Unresolved = append(e.set.Unresolved, facts.Unresolved{At: at, What: "code run by " + how + " that does not parse"})
		return nil
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
	for k, v := range e.argBinds {
		st.scope.vars[k] = v
	}
	e.argBinds = nil
	for _, im := range u.Imports {
		e.bindImport(st, im)
	}
	var out *Val
	for _, s := range u.Top.Body {
		if e.overrun {
			break
		}
		if lang == "shell" && s.Op == Eval {
			out = merge(out, taintOnly(e.eval(s.Val, st.scope)))
			continue
		}
		e.stmt(s, st.scope)
	}
	e.walkFuncs(st, u.Top, st.scope)
	e.cur, e.fn, e.ctx = prev, prevFn, prevCtx
	e.nest--
	return out
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

// codecNames are the encodings a decoder's argument names.
var codecNames = map[string]bool{"base64": true, "base64url": true, "hex": true, "utf8": true, "utf-8": true, "ascii": true,
	"latin1": true, "binary": true, "ucs2": true, "ucs-2": true, "utf16le": true, "utf-16le": true}

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
		if strings.Contains(name, "fromcharcode") || strings.Contains(name, "fromcodepoint") {
			// String.fromCharCode(99, 117, …): the codes are the text
			if d, ok := charCodes(a.pos, 1); ok {
				out.addStr(d)
				out.addTaints(e.source(facts.Decoded, "char codes", at).T)
			}
			return out
		}
		for _, s := range strsOf(in) {
			if codecNames[strings.ToLower(s)] {
				continue // .toString("base64"): the argument names the codec, it is not the data
			}
			if d, codec, ok := decodeAs(name, s, a); ok {
				out.addStr(d)
				out.addTaints(e.source(facts.Decoded, codec, at).T)
			} else if c := opaqueCodec(name); c != "" && opaque(s) {
				// a constant a decoder cannot make text of (a binary, a
				// second layer): still code hidden in an opaque string
				out.addTaints(e.source(facts.Decoded, c+" (not text)", at).T)
			}
		}
		if len(out.S) == 0 {
			// bytes.decode("utf-8") and the like keep their input
			for _, s := range strsOf(in) {
				if !codecNames[strings.ToLower(s)] {
					out.addStr(s)
				}
			}
		}
	default:
		if method == "format" && a.recv != nil && e.lang() == "python" {
			if v := methodFormat(a.recv, a); v != nil {
				return v
			}
		}
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
			} else if len(a.recv.El) == 0 && sep == "" {
				// the characters of a string, joined back: the string
				for _, s := range a.recv.S {
					out.addStr(s)
				}
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
			} else if len(el.El) == 0 && sep == "" {
				// "".join(reversed(s)): the characters of a string, joined
				for _, s := range el.S {
					out.addStr(s)
				}
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
		case method == "map" && a.recv != nil && len(a.pos) == 1 || qual == "map" && len(a.pos) == 2:
			// map(f, table) / table.map(f): f called with each element
			fn, table := a.pos[0], a.recv
			if qual == "map" {
				table = a.pos[1]
			}
			if v := e.mapEach(fn, table, at); v != nil {
				return v
			}
			for _, s := range strsOf(in) {
				out.addStr(s)
			}
		case (qual == "bytes" || qual == "bytearray") && len(a.pos) == 1 && len(a.pos[0].El) > 0:
			// bytes([99, 117, …]) spells text in character codes
			if d, ok := charCodes(ordered(a.pos[0]), 8); ok {
				out.addStr(d)
				out.addTaints(e.source(facts.Decoded, "char codes", at).T)
			} else if f := execFormat(ordered(a.pos[0])); f != "" {
				// an executable's bytes spelled out in the source
				out.addTaints(e.source(facts.Decoded, "embedded "+f+" executable", at).T)
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

// remoteShell records a remote shell once a program both binds a socket
// to its standard streams and runs a shell.
func (e *engine) remoteShell(at facts.Span) {
	st := e.cur
	if st.sockRedirect && st.shellExec && !st.remoteShell {
		st.remoteShell = true
		e.effect(facts.RemoteShell, fmt.Sprintf("a socket bound to standard streams at line %d and a shell started at line %d", st.sockAt, st.shellAt), at)
	}
}

// hole reports a word folded with an unknown part ("?") and no value of
// its own: the place a nested command's text was filled in.
func hole(v *Val) bool {
	if v == nil || len(v.T) > 0 {
		return false
	}
	for _, s := range v.S {
		if strings.Contains(s, "?") {
			return true
		}
	}
	return false
}
