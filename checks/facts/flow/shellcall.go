package flow

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// stdinKey is the keyword the shell producer gives a command's standard
// input.
const stdinKey = "<stdin>"

// shellCall runs one shell command: its program is the first word's value
// (so "c=cu; ${c}rl" is curl), its arguments are read the way the
// vocabulary's entry for the program says (flags, flag values,
// positionals), and its output carries what went in unless the program
// is a source or a sink.
func (e *engine) shellCall(x *Expr, sc *scope) *Val {
	at := e.span(x.Line, x.Col)
	fnv := e.eval(x.X, sc)
	if e.lang() == "powershell" {
		if x.X.Op == Str {
			// a function the script defines is called by its name
			if v, ok := sc.lookup(x.X.S); ok && v.Fn != nil {
				fnv = v
			} else if st := e.cur; st.scope != nil {
				if v, ok := st.scope.lookup(x.X.S); ok && v.Fn != nil {
					fnv = v
				}
			}
		}
		if fnv.Fn != nil {
			return e.invoke(fnv.Fn, e.psArgs(x, sc, fnv.Fn), at)
		}
	}
	if fnv.Fn != nil {
		return e.invoke(fnv.Fn, e.fnArgs(x, sc), at)
	}
	prog, ok := fnv.str()
	if ok {
		// a function the script defined, called by name
		if fv, found := sc.lookup(prog); found && fv.Fn != nil {
			return e.invoke(fv.Fn, e.fnArgs(x, sc), at)
		}
	}
	if !ok || prog == "" || prog == "?" {
		// A command whose name is computed at run time: running the
		// output of a download runs the download.
		v := taintOnly(fnv)
		a := e.shellArgs(x, sc, nil)
		s := e.sink(facts.ExecShell, "<computed command>", "", nil, nil, at)
		e.flows(fnv, s, "cmd")
		for _, av := range a.order {
			v.addTaints(allTaints(av, 3))
		}
		return v
	}
	return e.program(prog, x, sc, at, 0)
}

// fnArgs are a call of a function the script defines: its words, flags
// included, are $1, $2 … in order (the function's one parameter, "@",
// collects them).
func (e *engine) fnArgs(x *Expr, sc *scope) *args {
	a := &args{kw: map[string]*Val{}}
	for i, w := range x.Args {
		if i < len(x.Keys) && x.Keys[i] != "" && x.Keys[i] != "*" {
			continue // redirected input and the like
		}
		v := e.eval(w, sc)
		vs := []*Val{v}
		if i < len(x.Keys) && x.Keys[i] == "*" {
			vs = ordered(v) // "$@" passes each of its elements
		}
		for _, v := range vs {
			a.pos = append(a.pos, v)
			a.order = append(a.order, v)
			a.names = append(a.names, "")
		}
	}
	return a
}

// psArgs binds a PowerShell function's arguments as PowerShell does:
// "-name value" to $name, then positionals to the parameters left in
// order, the rest to $args, and pipeline input to $_ and $input.
func (e *engine) psArgs(x *Expr, sc *scope, c *closure) *args {
	a := &args{kw: map[string]*Val{}}
	has := map[string]bool{}
	for _, p := range c.fn.Params {
		has[p.Name] = true
	}
	var pos []*Val
	for i := 0; i < len(x.Args); i++ {
		k := ""
		if i < len(x.Keys) {
			k = x.Keys[i]
		}
		if k == stdinKey {
			in := e.eval(x.Args[i], sc)
			a.kw["$_"], a.kw["$input"] = elements(in), in
			continue
		}
		if k != "" {
			a.kw[k] = e.eval(x.Args[i], sc)
			continue
		}
		if w := x.Args[i]; w.Op == Str && strings.HasPrefix(w.S, "-") && has["$"+w.S[1:]] {
			v := &Val{S: []string{"true"}} // a switch
			if i+1 < len(x.Args) && !(x.Args[i+1].Op == Str && strings.HasPrefix(x.Args[i+1].S, "-")) {
				i++
				v = e.eval(x.Args[i], sc)
			}
			a.kw["$"+w.S[1:]] = v
			continue
		}
		pos = append(pos, e.eval(x.Args[i], sc))
	}
	rest := &Val{El: map[string]*Val{}}
	for _, p := range c.fn.Params {
		if a.kw[p.Name] != nil || strings.HasPrefix(p.Name, "$") && (p.Name == "$_" || p.Name == "$input" || p.Name == "$args" || p.Name == "$this") {
			continue
		}
		if len(pos) > 0 {
			a.kw[p.Name], pos = pos[0], pos[1:]
		}
	}
	for i, v := range pos {
		rest.setField(itoa(i), v)
		rest.addTaints(v.T)
	}
	a.kw["$args"] = rest
	for k, v := range a.kw {
		a.order = append(a.order, v)
		a.names = append(a.names, k)
	}
	return a
}

// cmdRole is a command's entry: for PowerShell its own section first,
// then the shell's (for the native programs a script runs).
func (e *engine) cmdRole(name string) *vocab.Role {
	if e.lang() == "powershell" {
		if r := vocab.Call("powershell", name); r != nil {
			return r
		}
	}
	return vocab.Call("shell", name)
}

// program dispatches a command named prog; wrappers (sudo, env, nohup,
// timeout, xargs) pass to the program they run.
func (e *engine) program(prog string, x *Expr, sc *scope, at facts.Span, skip int) *Val {
	name := strings.ToLower(path.Base(strings.ReplaceAll(prog, `\`, "/")))
	name = strings.TrimSuffix(name, ".exe")
	role := e.cmdRole(name)
	if role != nil && role.Kind == "wrap" {
		if role.Arg != "" {
			e.sink(facts.SinkKind(role.Arg), name, "", nil, nil, at)
		}
		valued := splitOpt(role.Entry.Opt("valued"))
		words := x.Args
		keys := x.Keys
		i := skip
		positionals := 0
		if n, err := strconv.Atoi(role.Entry.Opt("skip")); err == nil {
			positionals = n
		}
		for ; i < len(words); i++ {
			if keys != nil && i < len(keys) && keys[i] != "" {
				continue
			}
			w := e.eval(words[i], sc)
			s, _ := w.str()
			if strings.HasPrefix(s, "-") {
				if valued[s] {
					i++
				}
				continue
			}
			if strings.Contains(s, "=") && role.Entry.Has("assigns") || isNumeric(s) && role.Entry.Has("numbers") {
				continue
			}
			if positionals > 0 {
				positionals--
				continue
			}
			break
		}
		if i < len(words) {
			w := e.eval(words[i], sc)
			if next, ok := w.str(); ok {
				sub := &Expr{Op: Call, X: words[i], Args: words[i+1:], Line: x.Line, Col: x.Col}
				if keys != nil {
					sub.Keys = keys[i+1:]
					// a wrapper's input is its program's
					for j, k := range keys[:i] {
						if k == stdinKey {
							sub.Args = append(sub.Args, x.Args[j])
							sub.Keys = append(sub.Keys, k)
						}
					}
				}
				if name == "xargs" {
					// xargs runs its program with its input as arguments
					for j, k := range keys {
						if k == stdinKey {
							sub.Args = append(sub.Args, x.Args[j])
							sub.Keys = append(sub.Keys, "")
						}
					}
				}
				return e.program(next, sub, sc, at, 0)
			}
		}
		if role.Entry.Has("dump") {
			return e.envMap(name)
		}
		return taintOnly(e.shellArgs(x, sc, nil).order...)
	}
	if sub, mod := e.moduleRun(role, x, sc); sub != nil {
		return e.program(mod, sub, sc, at, 0)
	}
	a := e.shellArgs(x, sc, role)
	// A subcommand (git config, systemctl enable), a subcommand's own
	// subcommand or key (gh release create, git config core.hooksPath) or
	// a mode flag (journalctl --vacuum-time) has an entry of its own; the
	// longer name wins.
	if len(a.pos) > 0 {
		var subs []string
		for _, p := range a.pos[:min(2, len(a.pos))] {
			s, ok := p.str()
			if !ok {
				break
			}
			subs = append(subs, s)
		}
		for n := len(subs); n > 0; n-- {
			full := name + "." + strings.Join(subs[:n], ".")
			r := e.cmdRole(full)
			if r == nil {
				continue
			}
			cur := x
			for range n {
				cur = &Expr{Op: Call, X: x.X, Args: dropFirstPositional(e, cur, sc), Keys: dropFirstKey(e, cur, sc), Line: x.Line, Col: x.Col}
			}
			role, name = r, full
			a = e.shellArgs(cur, sc, role)
			break
		}
	}
	if role == nil || role.Kind != "effect" {
		for k := range a.kw {
			if r := e.cmdRole(name + "." + k); r != nil {
				role, name = r, name+"."+k
				break
			}
		}
	}
	if role != nil && role.Entry.Opt("first") != "" && !firstMatches(role.Entry.Opt("first"), a) {
		role = nil // "at least": not the at command
	}
	if role == nil {
		// A program the artifact wrote or downloaded runs what it holds;
		// a shell builtin (":", "true", "cd") is never a file.
		if w := e.stored(prog); w != nil && !builtins[prog] {
			s := e.sink(facts.ExecShell, name, prog, nil, nil, at)
			e.flows(w, s, "cmd")
		} else if remoteShare(prog) {
			s := e.sink(facts.ExecShell, name, prog, nil, nil, at)
			e.flows(e.source(facts.RemoteContent, prog, at), s, "cmd")
		}
		// An unknown program: its output carries its input.
		return taintOnly(a.order...)
	}
	e.fileArgs(role, a, at)
	switch role.Kind {
	case "copy":
		if len(role.Ref("path")) > 0 {
			// named sources and destination (Copy-Item -Path a -Destination b)
			srcs := a.ref(role, "path")
			if dst := a.ref(role, "dest"); len(srcs) > 0 && len(dst) > 0 {
				a = &args{pos: append(srcs, dst[0]), kw: a.kw}
			}
		}
		return e.copyFiles(name, a, at)
	case "dd":
		return e.dd(name, a, at)
	case "effect":
		if !flagged(role, a) {
			return taintOnly(a.order...)
		}
		if need := role.Entry.Opt("needs"); need != "" {
			found := false
			for _, p := range strsOf(a.pos) {
				if vocab.NameLabel(p) == need {
					found = true
				}
			}
			if !found {
				return taintOnly(a.order...)
			}
		}
	case "xform":
		if df := role.Entry.Opt("decode-flag"); df != "" && role.Arg == "decode" && !hasAny(a, splitOpt(df)) {
			// encoding: the output carries the input, not the key it
			// was encrypted with
			return e.written(role, a, taintOnly(a.ref(role, "data")...))
		}
	}
	if sf := role.Entry.Opt("shell-flags"); sf != "" && hasAny(a, splitOpt(sf)) {
		e.effect(facts.RemoteShell, name+" with a shell bound to its connection", at)
	}
	if sa := role.Entry.Opt("shell-args"); sa != "" {
		for _, p := range strsOf(a.pos) {
			for pre := range splitOpt(sa) {
				if strings.HasPrefix(p, pre) {
					e.effect(facts.RemoteShell, name+" running a shell for a connection", at)
				}
			}
		}
	}
	if role.Kind == "env-dump" {
		if len(a.pos) == 0 {
			return e.envMap(name)
		}
		for _, n := range strsOf(a.pos[:1]) {
			return e.envVar(n, nil)
		}
		return &Val{}
	}
	// curl -d @file, -T file: the data names a file that is read.
	if role.Entry.Has("at-file") {
		for k, v := range a.kw {
			for _, s := range v.S {
				p, isFile := atFile(s)
				if !isFile {
					continue
				}
				if l := sensitiveRead(vocab.PathLabels(p)); l != "" {
					nv := v.clone()
					nv.addTaints(e.source(l, p, at).T)
					a.kw[k] = nv
				}
				if w := e.stored(p); w != nil {
					// a file the artifact wrote before (an archive of
					// the user's keys) is sent with what it holds
					nv := a.kw[k].clone()
					nv.addTaints(w.T)
					a.kw[k] = nv
				}
			}
		}
	}
	v := e.apply(role, name, "", a, nil, at)
	if role.Kind == "xform" {
		e.written(role, a, v)
	}
	return v
}

// written records a transform's result in the file its out= names (tar
// -f, openssl -out): a later read or upload of it carries the result.
func (e *engine) written(role *vocab.Role, a *args, v *Val) *Val {
	for _, o := range strsOf(a.ref(role, "out")) {
		if o != "" && o != "-" {
			e.files[vocab.NormPath(o)] = merge(e.files[vocab.NormPath(o)], v)
		}
	}
	return v
}

// oldFlags is a first word of bundled option letters with no dash (tar's
// "czf").
var oldFlags = regexp.MustCompile(`^[A-Za-z]{1,8}$`)

// builtins are commands the shell runs itself, whatever files exist.
var builtins = map[string]bool{":": true, "true": true, "false": true, "cd": true, "test": true, "[": true, "[[": true,
	"exit": true, "return": true, "shift": true, "wait": true, "read": true, "local": true, "unset": true}

// atFile reads curl's and httpie's "@path" and "name=@path" data forms.
func atFile(s string) (string, bool) {
	if i := strings.Index(s, "=@"); i >= 0 {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "@") && s != "@-" && len(s) > 1 {
		return s[1:], true
	}
	if strings.HasPrefix(s, "<") && len(s) > 1 {
		return s[1:], true
	}
	return "", false
}

func splitOpt(v string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.Split(v, ",") {
		if f != "" {
			out[f] = true
		}
	}
	return out
}

func isNumeric(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhdSMHD") == ""
}

// shellArgs reads a command's words against its program's entry: flags
// named in valued= take the next word (or the rest of their own word,
// --flag=value, -dVALUE) as their value; other flags are true;
// everything else is positional. Standard input and the command's
// environment assignments keep their keys.
func (e *engine) shellArgs(x *Expr, sc *scope, role *vocab.Role) *args {
	a := &args{kw: map[string]*Val{}}
	var valued map[string]bool
	nocase, prefix, oldStyle := false, false, false
	if role != nil {
		valued = splitOpt(role.Entry.Opt("valued"))
		oldStyle = role.Entry.Has("old-style")
		// PowerShell's parameters: any case, and any prefix that names
		// one valued parameter (-enc for -EncodedCommand)
		nocase, prefix = role.Entry.Has("nocase"), role.Entry.Has("prefix")
	}
	canon := func(s string) string {
		if nocase {
			s = strings.ToLower(s)
		}
		if !prefix || valued[s] || len(s) < 3 {
			return s
		}
		match := ""
		for f := range valued {
			if strings.HasPrefix(f, s) {
				if match != "" && match != f {
					return s // ambiguous
				}
				match = f
			}
		}
		if match != "" {
			return match
		}
		return s
	}
	put := func(k string, v *Val) {
		if old, ok := a.kw[k]; ok {
			v = merge(old, v)
		}
		a.kw[k] = v
		a.order = append(a.order, v)
		a.names = append(a.names, k)
	}
	defer func() {
		if _, ok := a.kw[stdinKey]; !ok && e.stdin != nil {
			a.kw[stdinKey] = e.stdin
			a.order = append(a.order, e.stdin)
			a.names = append(a.names, stdinKey)
		}
	}()
	// the words, with arrays spread ("${ARGS[@]}")
	type word struct {
		k string
		v *Val
	}
	var ws []word
	for i, ax := range x.Args {
		k := ""
		if i < len(x.Keys) {
			k = x.Keys[i]
		}
		v := e.eval(ax, sc)
		if k == "*" {
			for _, el := range ordered(v) {
				ws = append(ws, word{"", el})
			}
			continue
		}
		ws = append(ws, word{k, v})
	}
	for i := 0; i < len(ws); i++ {
		k, v := ws[i].k, ws[i].v
		if k == "**" {
			// a splatted table (PowerShell's @params): its keys are
			// parameters
			keys := make([]string, 0, len(v.El))
			for fk := range v.El {
				keys = append(keys, fk)
			}
			slices.Sort(keys)
			for _, fk := range keys {
				if fk != "" {
					put(canon("-"+fk), v.El[fk])
				}
			}
			continue
		}
		if k != "" {
			put(k, v)
			continue
		}
		s, known := v.str()
		if known && len(a.pos) == 0 && len(a.kw) == 0 && oldStyle && oldFlags.MatchString(s) {
			s = "-" + s // tar czf FILE: the first word's flags need no dash
		}
		if !known || !strings.HasPrefix(s, "-") || s == "-" || s == "--" {
			a.pos = append(a.pos, v)
			a.order = append(a.order, v)
			a.names = append(a.names, "")
			continue
		}
		s = canon(s)
		if f, val, ok := strings.Cut(s, "="); ok && strings.HasPrefix(s, "--") {
			put(f, &Val{S: []string{val}, T: v.T})
			continue
		}
		if valued[s] {
			if i+1 < len(ws) {
				i++
				put(s, ws[i].v)
			}
			continue
		}
		if !strings.HasPrefix(s, "--") && len(s) > 2 && !nocase && e.lang() != "powershell" {
			// -sSL, -dVALUE
			for j := 1; j < len(s); j++ {
				f := "-" + s[j:j+1]
				if valued[f] {
					if j+1 < len(s) {
						put(f, &Val{S: []string{s[j+1:]}, T: v.T})
					} else if i+1 < len(ws) {
						i++
						put(f, ws[i].v)
					}
					break
				}
				put(f, &Val{S: []string{"true"}, Switch: true})
			}
			continue
		}
		put(s, &Val{S: []string{"true"}, Switch: true})
	}
	return a
}

// shellName reads a variable no assignment set: the environment's.
func (e *engine) shellName(n string) *Val {
	switch n {
	case "HOME":
		return &Val{S: []string{"~"}}
	case "IFS":
		return &Val{S: []string{" "}}
	case "PWD", "OLDPWD":
		return &Val{S: []string{"."}}
	case "@", "*", "#", "?", "$", "!", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "RANDOM", "LINENO", "SECONDS",
		"USER", "LOGNAME", "SHELL", "PATH", "TERM", "LANG", "TMPDIR", "HOSTNAME", "UID", "EUID", "PPID":
		return &Val{}
	}
	return e.envVar(n, nil)
}

func dropFirstPositional(e *engine, x *Expr, sc *scope) []*Expr {
	out, _ := dropFirst(e, x, sc)
	return out
}

func dropFirstKey(e *engine, x *Expr, sc *scope) []string {
	_, keys := dropFirst(e, x, sc)
	return keys
}

// dropFirst removes a command's first positional word (its subcommand).
func dropFirst(e *engine, x *Expr, sc *scope) ([]*Expr, []string) {
	var args []*Expr
	var keys []string
	dropped := false
	for i, a := range x.Args {
		k := ""
		if i < len(x.Keys) {
			k = x.Keys[i]
		}
		if !dropped && k == "" {
			if s, ok := e.eval(a, sc).str(); ok && !strings.HasPrefix(s, "-") {
				dropped = true
				continue
			}
		}
		args = append(args, a)
		keys = append(keys, k)
	}
	return args, keys
}

func hasAny(a *args, flags map[string]bool) bool {
	for f := range flags {
		if _, ok := a.kw[f]; ok {
			return true
		}
		for _, p := range a.pos {
			if s, ok := p.str(); ok && s == f {
				return true
			}
		}
	}
	return false
}

// flagged says whether an effect entry's condition holds: flag= needs one
// of its flags, names= one of its names as an argument, values= one of its
// values as an argument.
func flagged(role *vocab.Role, a *args) bool {
	if f := role.Entry.Opt("flag"); f != "" && !hasAny(a, splitOpt(f)) {
		return false
	}
	if v := role.Entry.Opt("values"); v != "" {
		values := splitOpt(v)
		if !slices.ContainsFunc(strsOf(a.pos), func(s string) bool { return values[s] }) {
			return false
		}
	}
	if n := role.Entry.Opt("names"); n != "" {
		names := splitOpt(n)
		for _, s := range strsOf(a.pos) {
			if names[s] {
				return true
			}
		}
		return false
	}
	return true
}

// fileArgs adds a source to each argument that names a file the program
// reads (files= flags or positions) when the file is sensitive.
func (e *engine) fileArgs(role *vocab.Role, a *args, at facts.Span) {
	spec := role.Entry.Opt("files")
	if spec == "" {
		return
	}
	// dir= names the flags that change the directory the file words are
	// relative to (tar -C DIR .): the files are read there
	dir := ""
	for f := range splitOpt(role.Entry.Opt("dir")) {
		if v := a.kw[f]; v != nil {
			if d, ok := v.str(); ok {
				dir = d
			}
		}
	}
	mark := func(v *Val) *Val {
		if v == nil {
			return v
		}
		out := v
		for _, p := range v.S {
			if dir != "" && p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$") && !strings.HasPrefix(p, "@") {
				p = path.Join(dir, p)
			}
			if l := sensitiveRead(vocab.PathLabels(strings.TrimPrefix(p, "@"))); l != "" {
				if out == v {
					out = v.clone()
				}
				out.addTaints(e.source(l, p, at).T)
			}
			if w := e.stored(strings.TrimPrefix(p, "@")); w != nil {
				// what the artifact wrote there before is read back
				if out == v {
					out = v.clone()
				}
				out.addTaints(w.T)
			}
		}
		return out
	}
	for _, f := range strings.Split(spec, ",") {
		switch {
		case f == "*":
			for i := range a.pos {
				a.pos[i] = mark(a.pos[i])
			}
		case f != "" && f[0] >= '0' && f[0] <= '9':
			if i := int(f[0] - '0'); i < len(a.pos) {
				a.pos[i] = mark(a.pos[i])
			}
		default:
			if v, ok := a.kw[f]; ok {
				a.kw[f] = mark(v)
			}
		}
	}
	a.order = a.order[:0]
	a.names = a.names[:0]
	for _, v := range a.pos {
		a.order = append(a.order, v)
		a.names = append(a.names, "")
	}
	for k, v := range a.kw {
		a.order = append(a.order, v)
		a.names = append(a.names, k)
	}
}

// copyFiles is cp/mv/install: every argument but the last is read, the
// last written with what was read.
func (e *engine) copyFiles(name string, a *args, at facts.Span) *Val {
	if len(a.pos) < 2 {
		return &Val{}
	}
	data := &Val{}
	for _, v := range a.pos[:len(a.pos)-1] {
		data.addTaints(allTaints(v, 3))
		for _, p := range v.S {
			if l := sensitiveRead(vocab.PathLabels(p)); l != "" {
				data.addTaints(e.source(l, p, at).T)
			}
		}
	}
	role := &vocab.Role{Kind: "write-file", Entry: &vocab.Entry{Opts: map[string]string{}}, Refs: map[string][]vocab.ArgRef{"path": {{Pos: 0}}, "data": {{Pos: 1}}}}
	w := &args{pos: []*Val{a.pos[len(a.pos)-1], data}, kw: map[string]*Val{}}
	w.order, w.names = w.pos, []string{"", ""}
	return e.apply(role, name, "", w, nil, at)
}

// dd reads if= and writes of=; writing a device destroys it.
func (e *engine) dd(name string, a *args, at facts.Span) *Val {
	in, out := &Val{}, ""
	for _, v := range a.pos {
		for _, s := range v.S {
			switch {
			case strings.HasPrefix(s, "if="):
				p := s[3:]
				if l := sensitiveRead(vocab.PathLabels(p)); l != "" {
					in.addTaints(e.source(l, p, at).T)
				}
			case strings.HasPrefix(s, "of="):
				out = s[3:]
			}
		}
	}
	if out == "" {
		return in
	}
	labels := vocab.PathLabels(out)
	if labels.Has("device") {
		e.sink(facts.Delete, name, out, labels, nil, at)
		return &Val{}
	}
	s := e.sink(facts.FileWrite, name, out, labels, nil, at)
	e.flows(in, s, "data")
	if labels.Has("persist") {
		e.flows(in, e.sink(facts.Persist, name, out, labels, nil, at), "data")
	}
	return &Val{}
}

// firstMatches reports whether a command's first positional argument
// matches an entry's first= pattern.
func firstMatches(pattern string, a *args) bool {
	if len(a.pos) == 0 {
		return false
	}
	s, ok := a.pos[0].str()
	if !ok {
		return false
	}
	re, err := regexp.Compile(`^(?:` + pattern + `)$`)
	return err == nil && re.MatchString(s)
}

// moduleRun reads "python -m pip install X" as the program the module
// is ("pip install X"), when the vocabulary knows it as a program: the
// interpreter is only how it is started.
func (e *engine) moduleRun(role *vocab.Role, x *Expr, sc *scope) (*Expr, string) {
	if role == nil || role.Entry.Opt("lang") != "python" {
		return nil, ""
	}
	for i := 0; i+1 < len(x.Args); i++ {
		if i < len(x.Keys) && x.Keys[i] != "" {
			continue
		}
		s, ok := e.eval(x.Args[i], sc).str()
		if !ok || !strings.HasPrefix(s, "-") {
			return nil, "" // the script or -c's code comes first
		}
		if s != "-m" {
			continue
		}
		mod, ok := e.eval(x.Args[i+1], sc).str()
		if !ok || mod == "" {
			return nil, ""
		}
		known := e.cmdRole(mod) != nil
		if !known && i+2 < len(x.Args) {
			if sub, ok := e.eval(x.Args[i+2], sc).str(); ok {
				known = e.cmdRole(mod+"."+sub) != nil
			}
		}
		if !known {
			return nil, ""
		}
		sub := &Expr{Op: Call, X: x.Args[i+1], Args: x.Args[i+2:], Line: x.Line, Col: x.Col}
		if len(x.Keys) > i+2 {
			sub.Keys = x.Keys[i+2:]
		}
		return sub, mod
	}
	return nil, ""
}
