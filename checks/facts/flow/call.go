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

// args is a call's evaluated arguments.
type args struct {
	pos   []*Val
	kw    map[string]*Val
	order []*Val
	names []string // keyword per order entry ("" positional)
	recv  *Val
}

func (a *args) get(r vocab.ArgRef) *Val {
	switch {
	case r.Recv:
		return a.recv
	case r.Pos >= 0:
		if r.Pos >= len(a.pos) {
			if r.Key != "" {
				return nil
			}
			return nil
		}
		v := a.pos[r.Pos]
		if r.Key != "" {
			if v == nil || v.El == nil {
				return nil
			}
			return v.El[r.Key]
		}
		return v
	default:
		return a.kw[r.Key]
	}
}

// ref resolves one of a role's argument references; "*" gives every
// argument no other reference of the role names.
func (a *args) ref(role *vocab.Role, kind string) []*Val {
	var out []*Val
	for _, r := range role.Ref(kind) {
		if r.All {
			named := map[int]bool{}
			namedKw := map[string]bool{}
			for k, refs := range role.Refs {
				if k == kind {
					continue
				}
				for _, o := range refs {
					if o.Pos >= 0 && o.Key == "" {
						named[o.Pos] = true
					} else if o.Pos < 0 && o.Key != "" {
						namedKw[o.Key] = true
					}
				}
			}
			pi := 0
			for i, v := range a.order {
				if a.names[i] == "" {
					if !named[pi] {
						out = append(out, v)
					}
					pi++
				} else if !namedKw[a.names[i]] && !v.Switch {
					// a bare flag ("--now") is no destination, data or unit
					out = append(out, v)
				}
			}
			continue
		}
		if v := a.get(r); v != nil {
			out = append(out, v)
		}
	}
	return out
}

func strsOf(vs []*Val) []string {
	var out []string
	for _, v := range vs {
		if v == nil {
			continue
		}
		out = append(out, v.S...)
		if len(v.S) == 0 && len(v.El) > 0 {
			// a list of strings: an argv, a path's parts
			for i := 0; i < len(v.El); i++ {
				if f, ok := v.El[fmt.Sprint(i)]; ok && len(f.S) > 0 {
					out = append(out, f.S[0])
				}
			}
		}
	}
	return out
}

// exprName is the variable name a receiver is spelled with ("" when it is
// not a name or an attribute).
func exprName(x *Expr) string {
	switch {
	case x == nil:
		return ""
	case x.Op == Name:
		return x.S
	case x.Op == Attr:
		return x.S
	case x.Op == Call:
		return exprName(x.X)
	}
	return ""
}

func (e *engine) call(x *Expr, sc *scope) *Val {
	if e.lang() == "shell" && (x.X == nil || x.X.Op != Attr) || e.lang() == "powershell" && psCommand(x) {
		return e.shellCall(x, sc)
	}
	line, col := x.Line, x.Col
	at := e.span(line, col)
	var recv, fnv *Val
	method, recvName, qual := "", "", ""
	if x.X != nil && x.X.Op == Attr {
		recv = e.eval(x.X.X, sc)
		method, recvName = x.X.S, exprName(x.X.X)
		switch {
		case recv.Env:
			fnv = &Val{}
		case recv.El[method] != nil:
			fnv = recv.El[method]
		case recv.Cls != nil:
			fnv = e.method(recv, method)
		}
		if fnv == nil {
			fnv = &Val{}
		}
		if recv.Q != "" {
			qual = recv.Q + "." + method
		}
	} else {
		fnv = e.eval(x.X, sc)
		qual = fnv.Q
	}
	a := &args{kw: map[string]*Val{}, recv: recv}
	var closures []*closure
	for i, ax := range x.Args {
		v := e.eval(ax, sc)
		name := ""
		if i < len(x.Keys) {
			name = x.Keys[i]
		}
		switch name {
		case "":
			a.pos = append(a.pos, v)
		case "*":
			// f(*table), f(...table): each element of a literal table is
			// an argument of its own
			if els := ordered(v); len(els) > 1 && len(els) <= maxLoopTable {
				a.pos = append(a.pos, els...)
			} else {
				a.pos = append(a.pos, elements(v))
			}
		case "**":
			for k, f := range v.El {
				a.kw[k] = f
			}
		default:
			a.kw[name] = v
		}
		a.order = append(a.order, v)
		a.names = append(a.names, name)
		if v.Fn != nil {
			closures = append(closures, v.Fn)
		}
	}
	if recv != nil && recv.Env {
		switch method {
		case "get", "getenv", "pop", "setdefault":
			if len(a.pos) > 0 {
				if n, ok := a.pos[0].str(); ok {
					return e.envVar(n, recv)
				}
				// one variable whose name is not known here (a helper's
				// parameter): a variable, not the whole environment
				return e.source(facts.EnvVar, "?", at)
			}
			return recv
		}
		return recv // items(), copy(), keys(): the whole environment
	}
	if fnv.Fn != nil {
		return e.invoke(fnv.Fn, a, at)
	}
	if fnv.Cls != nil && !fnv.Inst {
		return e.instantiate(fnv, a, at)
	}
	var role *vocab.Role
	if qual != "" {
		role = vocab.Call(e.lang(), qual)
		if role == nil && strings.HasPrefix(qual, "builtins.") {
			role = vocab.Call(e.lang(), strings.TrimPrefix(qual, "builtins."))
		}
	}
	if role == nil && method != "" && (recv == nil || recv.Cls == nil) {
		role = vocab.Method(e.lang(), method, recvName)
	}
	if role != nil {
		e.fileArgs(role, a, at) // files= arguments name files the call reads
		v := e.apply(role, qual, method, a, closures, at)
		if role.Kind != "register" {
			// a callback handed to a call the vocabulary knows runs with
			// what the call yields (fs.readFile's data, https.get's
			// response, setTimeout's nothing)
			for _, c := range closures {
				cargs := &args{kw: map[string]*Val{}}
				for range c.fn.Params {
					cargs.pos = append(cargs.pos, v)
					cargs.order = append(cargs.order, v)
					cargs.names = append(cargs.names, "")
				}
				e.invoke(c, cargs, at)
			}
		}
		return v
	}
	// Not modelled: the result carries what went in, and callbacks run
	// with the receiver and the arguments.
	out := taintOnly(append([]*Val{recv}, a.order...)...)
	for _, c := range closures {
		cargs := &args{kw: map[string]*Val{}}
		if recv != nil {
			cargs.pos = append(cargs.pos, recv)
			cargs.order = append(cargs.order, recv)
			cargs.names = append(cargs.names, "")
		}
		out = merge(out, e.invoke(c, cargs, at))
	}
	// a function the vocabulary knows, handed over as a callback
	// (.then(eval)), runs with the receiver too
	for i, v := range a.order {
		if recv == nil || v.Fn != nil || v.Cls != nil || v.Env || v.Q == "" || a.names[i] != "" {
			continue
		}
		if r := vocab.Call(e.lang(), v.Q); r != nil && r.Kind != "register" {
			cargs := &args{pos: []*Val{recv}, order: []*Val{recv}, names: []string{""}, kw: map[string]*Val{}}
			out = merge(out, e.apply(r, v.Q, "", cargs, nil, at))
		}
	}
	if qual != "" && len(out.T) == 0 {
		out.Q = qual + "()"
	}
	return out
}

// psCommand reports a PowerShell call that is a command (its words read
// as a shell command's are): not a method, a script block run in place,
// or a type's constructor (a Name that is not a $variable).
func psCommand(x *Expr) bool {
	switch {
	case x.X == nil:
		return true
	case x.X.Op == Attr, x.X.Op == Lambda:
		return false
	case x.X.Op == Name:
		return strings.HasPrefix(x.X.S, "$")
	}
	return true
}

// invoke calls a function of the artifact's own code with the values it is
// called with.
func (e *engine) invoke(c *closure, a *args, at facts.Span) *Val {
	f := c.fn
	if e.depth >= MaxCallDepth || slices.Contains(e.stack, f) {
		return taintOnly(a.order...)
	}
	key := memoKey(c, a)
	if v, ok := e.memo[key]; ok {
		return v
	}
	e.memo[key] = taintOnly(a.order...) // a recursive call sees its arguments
	e.called[f] = true
	e.depth++
	e.stack = append(e.stack, f)
	prev, prevFn := e.cur, e.fn
	if c.unit != nil {
		e.cur = c.unit
	}
	e.fn = f
	local := &scope{vars: map[string]*Val{}, parent: c.scope}
	params := f.Params
	pos := a.pos
	if c.self != nil && len(params) > 0 {
		local.vars[params[0].Name] = c.self
		params = params[1:]
	}
	for i, p := range params {
		switch {
		case p.Rest:
			rest := &Val{El: map[string]*Val{}}
			for j := i; j < len(pos); j++ {
				rest.setField(fmt.Sprint(j-i), pos[j])
				rest.addTaints(pos[j].T)
			}
			local.vars[p.Name] = rest
		case i < len(pos):
			local.vars[p.Name] = pos[i]
		case a.kw[p.Name] != nil:
			local.vars[p.Name] = a.kw[p.Name]
		case p.Default != nil:
			local.vars[p.Name] = e.eval(p.Default, c.scope)
		default:
			local.vars[p.Name] = &Val{}
		}
	}
	ret := e.block(f.Body, local)
	e.cur, e.fn = prev, prevFn
	e.stack = e.stack[:len(e.stack)-1]
	e.depth--
	if ret == nil {
		ret = &Val{}
	}
	e.memo[key] = ret
	return ret
}

func memoKey(c *closure, a *args) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%p/%p", c.fn, c.self)
	for i, v := range a.order {
		b.WriteString("|")
		b.WriteString(a.names[i])
		for _, t := range allTaints(v, 2) {
			fmt.Fprintf(&b, ",%d", t.src)
		}
		if s, ok := v.str(); ok {
			b.WriteString("=")
			b.WriteString(s)
		}
		if v.Fn != nil {
			fmt.Fprintf(&b, "@%p", v.Fn.fn)
		}
		if v.Q != "" {
			b.WriteString("#" + v.Q)
		}
	}
	return b.String()
}

// sensitiveRead maps the labels of a path read to the source label it
// yields ("" when reading it is unremarkable).
func sensitiveRead(labels vocab.Labels) facts.Label {
	if labels.Has("public") {
		return "" // a public key is published by design
	}
	for _, l := range []string{"credential-store", "keychain", "browser-data", "wallet", "agent-config", "env-file", "history", "user-files"} {
		if labels.Has(l) {
			return facts.Label(l)
		}
	}
	if labels.Has("proc-environ") {
		return facts.WholeEnv
	}
	return ""
}

func destLabels(kind facts.SinkKind, dest string) []string {
	switch kind {
	case facts.NetSend, facts.NetConnect, facts.DNS, facts.Mail:
		if l := vocab.HostLabel(dest); l != "" {
			return []string{l}
		}
		return nil
	}
	return vocab.PathLabels(dest)
}

func (e *engine) apply(role *vocab.Role, qual, method string, a *args, closures []*closure, at facts.Span) *Val {
	api := qual
	if api == "" {
		api = "*." + method
	}
	all := taintOnly(append([]*Val{a.recv}, a.order...)...)
	switch role.Kind {
	case "ctor":
		v := &Val{Q: role.Arg}
		if role.Entry.Opt("fields") == "" {
			v.addTaints(all.T) // with fields=, what goes in is kept in its field
		}
		if l := role.Entry.Opt("label"); l != "" {
			// label=L: the object is itself a value of that kind (a
			// connection is a socket)
			v.addTaints(e.source(facts.Label(l), api, at).T)
		}
		switch strs := strsOf(a.ref(role, "str")); len(strs) {
		case 0:
		case 1:
			v.addStr(strs[0]) // a URL keeps its //
		default:
			v.addStr(path.Join(strs...))
		}
		if d := a.ref(role, "dest"); len(d) > 0 {
			dest := firstNonEmpty(destStrs(d))
			s := e.sink(facts.NetConnect, api, dest, destLabels(facts.NetConnect, dest), nil, at)
			for _, dv := range d {
				e.flows(dv, s, "dest")
			}
		}
		// fields=Name:N keeps argument N as the object's field, for a
		// later call that reads it (a request's URL, body, header)
		for _, f := range strings.Split(role.Entry.Opt("fields"), ",") {
			name, pos, ok := strings.Cut(f, ":")
			if i, err := strconv.Atoi(pos); ok && err == nil && i >= 0 && i < len(a.pos) {
				v.setField(name, a.pos[i])
			}
		}
		return v
	case "env-map":
		return e.envMap(api)
	case "env-get":
		for _, n := range strsOf(a.ref(role, "name")) {
			return e.envVar(n, nil)
		}
		return &Val{}
	case "read-file":
		v := &Val{}
		var ps []string
		for _, pv := range a.ref(role, "path") {
			if pv == nil {
				continue
			}
			v.addTaints(allTaints(pv, 3))
			ps = append(ps, pv.S...)
		}
		for _, p := range ps {
			if w, ok := e.files[vocab.NormPath(p)]; ok {
				v.addTaints(w.T)
			}
			if l := sensitiveRead(vocab.PathLabels(p)); l != "" {
				v.addTaints(e.source(l, p, at).T)
			} else if role.Entry.Has("list") && (p == "~" || strings.HasPrefix(p, "~/") || p == "/") {
				v.addTaints(e.source(facts.UserFiles, p, at).T)
			}
		}
		if role.Entry.Has("handle") || method == "" && (qual == "open" || strings.HasSuffix(qual, ".open")) {
			for _, p := range ps {
				v.addStr(p)
			}
			v.Q = role.Entry.Opt("handle") // handle=TYPE: the handle's methods are TYPE's
		}
		return v
	case "write-file":
		ps := strsOf(a.ref(role, "path"))
		data := a.ref(role, "data")
		if len(ps) == 0 {
			ps = []string{""}
		}
		for _, p := range ps {
			if p == "/dev/null" {
				continue // discarded
			}
			if p != "" {
				w := e.files[vocab.NormPath(p)]
				if w == nil {
					w = &Val{}
					e.files[vocab.NormPath(p)] = w
				}
				for _, d := range data {
					w.addTaints(allTaints(d, 3))
					for _, t := range d.S {
						w.addStr(t) // the text, for a later run of the file
					}
				}
			}
			labels := vocab.PathLabels(p)
			kinds := []facts.SinkKind{facts.FileWrite}
			if labels.Has("persist") {
				kinds = append(kinds, facts.Persist)
			}
			if labels.Has("priv-config") {
				kinds = append(kinds, facts.PrivChange)
			}
			var written []string
			for _, t := range strsOf(data) {
				// each line written, for checks that read settings
				for i, ln := range strings.Split(t, "\n") {
					if i == 32 {
						break
					}
					if ln = strings.TrimSpace(ln); ln != "" {
						written = append(written, "data:"+clipLine(ln))
					}
				}
			}
			for _, k := range kinds {
				s := e.sink(k, api, p, labels, written, at)
				for _, d := range data {
					e.flows(d, s, "data")
				}
			}
			if slices.Contains(kinds, facts.Persist) {
				e.persisted(p, strsOf(data), at)
			}
		}
		if role.Entry.Has("handle") {
			// a call that opens the file for writing returns its handle:
			// what is written through it goes to the path
			h := &Val{Q: role.Entry.Opt("handle")}
			for _, p := range ps {
				if p != "" {
					h.addStr(p)
				}
			}
			return h
		}
		return &Val{}
	case "store":
		// a method that keeps data= in its receiver, under the key name=
		// names ("" for any): a header set, a buffer written to, an
		// element appended. into= names the argument that keeps it instead
		// (Object.assign(target, src)); local: only a value the artifact
		// built (a list, a dict), not a library's object
		target := a.recv
		if into := a.ref(role, "into"); len(into) > 0 {
			target = into[0]
		}
		if target != nil && !(role.Entry.Has("local") && (target.Q != "" && target.Q != "container" || target.Fn != nil || target.Cls != nil && !target.Inst || target.Env)) {
			k := firstStr(a.ref(role, "name"))
			for _, d := range a.ref(role, "data") {
				if d == target {
					continue
				}
				target.setField(k, merge(target.El[k], d))
				if role.Entry.Has("local") {
					target.addTaints(allTaints(d, 3)) // as obj[k] = v does
				}
			}
		}
		return all
	case "sink", "fetch":
		kind := facts.SinkKind(role.Arg)
		if role.Kind == "fetch" {
			kind = facts.NetSend
		}
		dests := a.ref(role, "dest")
		dlist := destStrs(dests)
		if kind == facts.NetSend || kind == facts.NetConnect {
			dlist = preferURLs(dlist)
		}
		if len(dlist) == 0 {
			dlist = []string{""}
		}
		if u := role.Entry.Opt("unless"); u != "" && hasAny(a, splitOpt(u)) {
			return all
		}
		if role.Entry.Has("needs-dest") && len(dests) == 0 {
			return all // a read of the setting, not a change to it
		}
		var argv []string
		switch kind {
		case facts.PrivChange, facts.ProcessKill, facts.Delete, facts.Install:
			argv = append(strsOf(a.ref(role, "data")), strsOf(a.pos)...)
			for k, v := range a.kw {
				if strings.HasPrefix(k, "-") {
					argv = append(argv, k)
					argv = append(argv, v.S...)
				}
			}
		}
		cred := map[*Val]bool{}
		for _, c := range a.ref(role, "cred") {
			cred[c] = true
		}
		for _, d := range append(a.ref(role, "data"), dests...) {
			if headerCredential(d) {
				// "-H 'Authorization: Bearer $TOKEN'" spelled as a word
				cred[d] = true
			}
		}
		if kind == facts.Persist {
			e.persisted(firstNonEmpty(dlist), strsOf(a.ref(role, "data")), at)
		}
		for _, dest := range dlist {
			s := e.sink(kind, api, dest, destLabels(kind, dest), argv, at)
			for _, d := range a.ref(role, "data") {
				if !cred[d] {
					e.flows(d, s, "data")
				}
			}
			for c := range cred {
				e.flows(c, s, "credential")
			}
			for _, d := range dests {
				e.flows(d, s, "dest")
			}
			if e.holes != nil && (kind == facts.NetSend || kind == facts.Mail || kind == facts.DNS) {
				// the data is a part of the command text the artifact
				// filled in (curl -d '{secrets}' run through os.system)
				for _, d := range a.ref(role, "data") {
					if hole(d) {
						arg := "data"
						if cred[d] {
							arg = "credential"
						}
						e.flowsAs(e.holes, s, arg, facts.SameScope)
					}
				}
			}
		}
		if role.Kind == "fetch" {
			v := e.source(facts.RemoteContent, firstNonEmpty(dlist), at)
			for _, o := range strsOf(a.ref(role, "out")) {
				if o != "-" && o != "" {
					e.files[vocab.NormPath(o)] = v
				}
			}
			if len(a.ref(role, "out")) == 0 && role.Entry.Opt("out") != "" && a.kw["-O"] != nil && len(dlist) > 0 {
				// curl -O names the file after the URL
				e.files[vocab.NormPath(path.Base(dlist[0]))] = v
			}
			return v
		}
		return &Val{}
	case "copy":
		return e.copyFiles(api, a, at)
	case "exec-shell", "exec-code", "exec-argv", "deserialize":
		return e.execRole(role, api, a, at)
	case "xform":
		return e.xform(role, qual, method, a, at)
	case "join":
		parts := a.ref(role, "str")
		v := taintOnly(parts...)
		var acc []string = []string{""}
		for _, pv := range parts {
			if pv == nil {
				continue
			}
			ss := pv.S
			if len(ss) == 0 {
				ss = []string{"?"}
			}
			var next []string
			for _, x := range acc {
				for _, y := range ss {
					if len(next) < maxStrs {
						next = append(next, joinPath(x, y))
					}
				}
			}
			acc = next
		}
		for _, s := range acc {
			if s != "" {
				v.addStr(s)
			}
		}
		if a.recv != nil && a.recv.Q == "pathlib.Path" {
			v.Q = "pathlib.Path"
		}
		return v
	case "home":
		v := taintOnly(a.order...)
		strs := strsOf(a.ref(role, "str"))
		switch base := role.Entry.Opt("base"); {
		case base != "":
			v.addStr(base) // a temporary directory
		case len(strs) == 0 && (!role.Entry.Has("expand") || strings.HasSuffix(qual, ".home")):
			v.addStr("~") // Path.home(), os.homedir(); expanduser of an unknown path stays unknown
		}
		for _, s := range strs {
			v.addStr(s)
		}
		if strings.HasPrefix(qual, "pathlib.") || a.recv != nil && a.recv.Q == "pathlib.Path" {
			v.Q = "pathlib.Path"
		}
		return v
	case "effect":
		e.applyEffect(role, api, a, at)
		return all
	case "fd-redirect":
		s := e.sink(facts.FDRedirect, api, "", nil, nil, at)
		for _, d := range a.ref(role, "data") {
			e.flows(d, s, "data")
		}
		return &Val{}
	case "source":
		v := e.source(facts.Label(role.Arg), api, at)
		v.addTaints(all.T)
		return v
	case "import":
		for _, n := range strsOf(a.ref(role, "name")) {
			q := normModule(e.lang(), n)
			// require("./helper") is the artifact's own module
			if t := e.resolveModule(e.cur, n); t != nil {
				e.runUnit(t)
				if t.scope != nil {
					if v, ok := exported(t, q, ""); ok {
						return v
					}
				}
			}
			return &Val{Q: q}
		}
		e.set.Unresolved = append(e.set.Unresolved, facts.Unresolved{At: at, What: "a module imported by a computed name"})
		return all
	case "getattr":
		names := strsOf(a.ref(role, "name"))
		objs := a.ref(role, "data")
		if len(names) > 0 && len(objs) > 0 && objs[0] != nil {
			o := objs[0]
			if f, ok := o.El[names[0]]; ok {
				return f
			}
			q := names[0]
			if o.Q != "" {
				q = o.Q + "." + q
			}
			if r := vocab.Call(e.lang(), q); r != nil && r.Kind == "env-map" {
				return e.envMap(q) // getattr(os, "environ") is the environment
			}
			return &Val{Q: q}
		}
		return all
	case "register":
		for _, c := range closures {
			e.handler(c, at)
		}
		return all
	}
	return all
}

func joinPath(x, y string) string {
	switch {
	case x == "":
		return y
	case strings.HasPrefix(y, "/"), strings.HasPrefix(y, "~"):
		return y
	}
	return strings.TrimSuffix(x, "/") + "/" + y
}

func firstStr(vs []*Val) string {
	for _, s := range strsOf(vs) {
		return s
	}
	return ""
}

func firstNonEmpty(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// handler runs a function registered as an entry a client drives (an MCP
// tool), its parameters user input.
func (e *engine) handler(c *closure, at facts.Span) {
	if e.called[c.fn] && e.depth > 0 {
		return
	}
	e.called[c.fn] = true
	prevCtx := e.ctx
	e.ctx |= facts.Handler
	a := &args{kw: map[string]*Val{}}
	for _, p := range c.fn.Params {
		v := e.source(facts.UserInput, p.Name, at)
		a.pos = append(a.pos, v)
		a.order = append(a.order, v)
		a.names = append(a.names, "")
	}
	e.invoke(c, a, at)
	e.ctx = prevCtx
}

func (e *engine) applyEffect(role *vocab.Role, api string, a *args, at facts.Span) {
	switch kind := role.Arg; kind {
	case "fork":
		if e.forever > 0 {
			e.effect(facts.ForkLoop, api+" in a loop", at)
		}
	case "anti-analysis":
		e.effect(facts.AntiDebug, api, at)
	case "sleep":
		// the delay is data= (the first argument by default), in seconds
		// or, with unit=ms, in milliseconds
		if role.Ref("data") == nil {
			role = &vocab.Role{Entry: role.Entry, Refs: map[string][]vocab.ArgRef{"data": {{Pos: 0}}}}
		}
		for _, s := range strsOf(a.ref(role, "data")) {
			var n float64
			if _, err := fmt.Sscan(s, &n); err != nil {
				continue
			}
			if role.Entry != nil && role.Entry.Opt("unit") == "ms" {
				n /= 1000
			}
			if n >= 3600 {
				e.effect(facts.SleepThenAct, fmt.Sprintf("%s(%s)", api, s), at)
			}
		}
	case "self-propagate":
		e.effect(facts.SelfPropagate, api, at)
	default:
		what := api
		if ss := strsOf(a.pos); api == "<assign>" && len(ss) >= 2 {
			what = ss[0] + "=" + ss[1] // the setting, not the pseudo-program
		}
		e.effect(facts.EffectKind(kind), what, at)
	}
}

// destStrs are the destinations a call names: strings, or a (host, port)
// pair as host:port.
func destStrs(vs []*Val) []string {
	var out []string
	for _, v := range vs {
		if v == nil {
			continue
		}
		if len(v.S) > 0 {
			out = append(out, v.S...)
			continue
		}
		h, p := v.El["0"], v.El["1"]
		if h != nil && len(h.S) > 0 {
			if p != nil && len(p.S) > 0 {
				out = append(out, h.S[0]+":"+p.S[0])
			} else {
				out = append(out, h.S[0])
			}
		}
	}
	return out
}

// preferURLs keeps the destinations that are URLs when there are any:
// a flag's value read as a positional is not where a request goes.
func preferURLs(ds []string) []string {
	var urls []string
	for _, d := range ds {
		if strings.Contains(d, "://") {
			urls = append(urls, d)
		}
	}
	if len(urls) > 0 {
		return urls
	}
	return ds
}

// headerCredential reports a value that is a credential header written as
// text ("Authorization: Bearer …", "X-API-Key: …").
func headerCredential(v *Val) bool {
	if v == nil {
		return false
	}
	for _, s := range v.S {
		l := strings.ToLower(s)
		if strings.Contains(l, "authorization:") || strings.Contains(l, "bearer ") || strings.Contains(l, "x-api-key:") || strings.Contains(l, "api-key:") || strings.Contains(l, "private-token:") {
			return true
		}
	}
	return false
}
