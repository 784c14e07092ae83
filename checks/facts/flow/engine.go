package flow

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// Limits on the engine's work: a unit's analysis stops at the step budget
// and says so.
const (
	MaxSteps     = 400_000 // expression evaluations per program
	MaxCallDepth = 5       // nested calls into the artifact's own functions
	MaxNest      = 4       // strings run as code, inside strings run as code
)

// Parser lowers a string of code found at run time (an exec'd string, an
// sh -c body) into a unit; nil when it does not parse.
type Parser func(path, src string, line int32) *Unit

// Program is the units of one subject that the engine follows values
// through together, and how to reach the producers of other languages for
// strings that are run as code.
type Program struct {
	Units []*Unit
	// Ctx qualifies every fact of a unit (in a document, install time).
	Ctx map[*Unit]facts.Context
	// Base spans: the medium and via chain of each unit.
	Medium map[*Unit]facts.Medium
	Via    map[*Unit][]string
	// Parsers by language, for code built from strings.
	Parsers map[string]Parser
	// Handler says whether a function is an entry a caller drives with
	// its own arguments (an MCP tool handler, a CLI main): its parameters
	// are user input.
	Handler func(u *Unit, f *Func) bool
}

type unitState struct {
	u      *Unit
	ctx    facts.Context
	medium facts.Medium
	via    []string
	scope  *scope
	done   bool
	busy   bool
	// A socket bound to a standard stream and a shell run in the same
	// program make a remote shell.
	sockRedirect, shellExec, remoteShell bool
	sockAt, shellAt                      int // their first lines
}

type scope struct {
	vars   map[string]*Val
	parent *scope
}

func (s *scope) lookup(n string) (*Val, bool) {
	for c := s; c != nil; c = c.parent {
		if v, ok := c.vars[n]; ok {
			return v, true
		}
	}
	return nil, false
}

type engine struct {
	p        *Program
	set      *facts.Set
	steps    int
	overrun  bool
	depth    int
	nest     int
	loop     int
	units    map[*Unit]*unitState
	byPath   map[string][]*unitState
	called   map[*Func]bool
	memo     map[string]*Val
	stack    []*Func
	seenFlow map[string]bool
	seenSink map[string]bool
	seenSrc  map[string]int
	cur      *unitState
	fn       *Func // the function being evaluated
	ctx      facts.Context
	curLine  int32
	// forever counts the loops around the statement that never end by
	// their condition (while True, while :, for (;;))
	forever int
	// files holds what the artifact wrote to each path, so a later read
	// of the path carries it.
	files map[string]*Val
	// argBinds are the variables the next nested shell program starts
	// with: the words of an argument vector that carry values.
	argBinds map[string]*Val
	// holes is what filled the unknown parts ("?") of the command text a
	// nested shell program runs (os.system(f"curl -d '{data}' …")): a
	// send whose data is such a part sends it.
	holes *Val
	// ctors holds each class's fields after its constructor ran.
	ctors map[*class]map[string]*Val
	// stdin is what a nested script reads when nothing is piped to a
	// command (git hands a credential helper the credentials).
	stdin *Val
}

// Run follows values through the program and returns its facts.
func Run(p *Program) *facts.Set {
	e := &engine{p: p, set: &facts.Set{}, units: map[*Unit]*unitState{}, byPath: map[string][]*unitState{},
		called: map[*Func]bool{}, memo: map[string]*Val{}, seenFlow: map[string]bool{}, seenSink: map[string]bool{},
		seenSrc: map[string]int{}, files: map[string]*Val{}}
	for _, u := range p.Units {
		st := &unitState{u: u, ctx: p.Ctx[u], medium: p.Medium[u], via: p.Via[u]}
		e.units[u] = st
		e.byPath[u.Path] = append(e.byPath[u.Path], st)
		for _, n := range u.Unresolved {
			e.set.Unresolved = append(e.set.Unresolved, facts.Unresolved{At: e.spanIn(st, n.Line, 0), What: n.What})
		}
	}
	for _, u := range p.Units {
		e.runUnit(e.units[u])
	}
	// Functions nothing in the artifact calls still run when their caller
	// (a framework, the user) calls them: each is followed once on its
	// own, its parameters unknown, or user input for a handler.
	for _, u := range p.Units {
		st := e.units[u]
		e.walkFuncs(st, u.Top, st.scope)
	}
	if e.overrun {
		e.set.Unresolved = append(e.set.Unresolved, facts.Unresolved{At: facts.Span{Path: p.Units[0].Path}, What: fmt.Sprintf("the flow analysis stopped at its budget of %d steps", MaxSteps)})
	}
	return e.set
}

func (e *engine) runUnit(st *unitState) {
	if st.done || st.busy {
		return
	}
	st.busy = true
	prev, prevFn, prevCtx := e.cur, e.fn, e.ctx
	e.cur, e.fn, e.ctx = st, st.u.Top, st.ctx|facts.ImportTime
	st.scope = &scope{vars: map[string]*Val{}}
	for _, im := range st.u.Imports {
		e.bindImport(st, im)
	}
	e.block(st.u.Top.Body, st.scope)
	e.cur, e.fn, e.ctx = prev, prevFn, prevCtx
	st.busy, st.done = false, true
}

// walkFuncs runs every function declared under f that was never called.
func (e *engine) walkFuncs(st *unitState, f *Func, sc *scope) {
	var visit func(body []*Stmt, sc *scope, class string)
	visit = func(body []*Stmt, sc *scope, class string) {
		for _, s := range body {
			switch s.Op {
			case Def:
				if !e.called[s.Fn] {
					e.standalone(st, s.Fn, sc)
				}
				visit(s.Fn.Body, &scope{vars: map[string]*Val{}, parent: sc}, "")
			case Class:
				visit(s.Fn.Body, sc, s.Fn.Name)
			default:
				visit(s.Body, sc, class)
			}
		}
	}
	if sc == nil {
		sc = &scope{vars: map[string]*Val{}}
	}
	visit(f.Body, sc, "")
}

func (e *engine) standalone(st *unitState, f *Func, sc *scope) {
	if e.overrun {
		return
	}
	e.called[f] = true
	prev, prevFn, prevCtx := e.cur, e.fn, e.ctx
	e.cur, e.fn, e.ctx = st, f, st.ctx
	handler := e.p.Handler != nil && e.p.Handler(st.u, f)
	if handler {
		e.ctx |= facts.Handler
	}
	local := &scope{vars: map[string]*Val{}, parent: sc}
	for i, p := range f.Params {
		v := &Val{}
		if handler && !(i == 0 && (p.Name == "self" || p.Name == "cls" || p.Name == "this")) {
			v = e.source(facts.UserInput, p.Name, e.span(f.Line, 0))
		}
		if f.Class != "" && i == 0 && (p.Name == "self" || p.Name == "this") {
			// an instance of its class: the fields its body sets, its methods
			v = &Val{Inst: true, El: map[string]*Val{}}
			if cv, ok := sc.lookup(f.Class); ok && cv.Cls != nil {
				v.Cls = cv.Cls
				for k, x := range cv.El {
					v.El[k] = x
				}
				// what the constructor stores in its fields, the other
				// methods read (self.url set in __init__)
				for k, x := range e.ctorFields(cv, f) {
					v.El[k] = x
				}
			}
		}
		local.vars[p.Name] = v
	}
	e.block(f.Body, local)
	e.cur, e.fn, e.ctx = prev, prevFn, prevCtx
}

func (e *engine) span(line, col int32) facts.Span { return e.spanIn(e.cur, line, col) }

func (e *engine) spanIn(st *unitState, line, col int32) facts.Span {
	return facts.Span{Path: st.u.Path, Line: int(line), Col: int(col), Medium: st.medium, Via: st.via}
}

func (e *engine) tick() bool {
	e.steps++
	if e.steps > MaxSteps {
		e.overrun = true
		return false
	}
	return true
}

// --- sources, sinks, effects, flows

func (e *engine) source(l facts.Label, what string, at facts.Span) *Val {
	key := fmt.Sprintf("%s\x00%s\x00%s:%d:%d", l, what, at.Path, at.Line, at.Col)
	idx, ok := e.seenSrc[key]
	if !ok {
		idx = len(e.set.Sources)
		e.set.Sources = append(e.set.Sources, facts.Source{Label: l, What: what, At: at, Ctx: e.ctx})
		e.seenSrc[key] = idx
	}
	return &Val{T: []taint{{src: idx}}}
}

func (e *engine) sink(kind facts.SinkKind, api, dest string, labels []string, args []string, at facts.Span) facts.Sink {
	s := facts.Sink{Kind: kind, API: api, Dest: dest, DestLabels: labels, Args: args, At: at, Ctx: e.ctx}
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%s:%d:%d", kind, api, dest, at.Path, at.Line, at.Col)
	if !e.seenSink[key] {
		e.seenSink[key] = true
		e.set.Sinks = append(e.set.Sinks, s)
	}
	return s
}

func (e *engine) effect(k facts.EffectKind, what string, at facts.Span) {
	e.set.Effects = append(e.set.Effects, facts.Effect{Kind: k, What: what, At: at, Ctx: e.ctx})
}

// flows records a flow from every taint of v to the sink.
func (e *engine) flows(v *Val, s facts.Sink, arg string) { e.flowsAs(v, s, arg, facts.Proven) }

// flowsAs records flows of a given strength.
func (e *engine) flowsAs(v *Val, s facts.Sink, arg string, strength facts.Strength) {
	for _, t := range allTaints(v, 3) {
		src := e.set.Sources[t.src]
		key := fmt.Sprintf("%d\x00%s\x00%s:%d:%d", t.src, s.Kind, s.At.Path, s.At.Line, s.At.Col)
		if e.seenFlow[key] {
			continue
		}
		e.seenFlow[key] = true
		if s.Kind == facts.FDRedirect && src.Label == facts.Socket {
			if !e.cur.sockRedirect {
				e.cur.sockRedirect, e.cur.sockAt = true, s.At.Line
			}
			e.remoteShell(s.At)
		}
		to := s
		if arg != "" {
			to.Args = append(slices.Clone(s.Args), "via:"+arg)
		}
		e.set.Flows = append(e.set.Flows, facts.Flow{From: src, To: to, Steps: slices.Clone(t.steps), Strength: strength})
	}
}

// --- statements

func (e *engine) block(body []*Stmt, sc *scope) *Val {
	var ret *Val
	for _, s := range body {
		if e.overrun {
			return ret
		}
		if r := e.stmt(s, sc); r != nil {
			ret = merge(ret, r)
		}
	}
	return ret
}

func (e *engine) stmt(s *Stmt, sc *scope) *Val {
	at := e.span(s.Line, s.Col)
	switch s.Op {
	case Assign:
		v := withStep(e.eval(s.Val, sc), at)
		for _, d := range s.Dst {
			e.assign(d, v, target(s, d, sc), at)
		}
	case Aug:
		v := e.eval(s.Val, sc)
		for _, d := range s.Dst {
			old := e.eval(d, sc)
			nv := withStep(concat(old, v), at)
			e.assign(d, nv, target(s, d, sc), at)
		}
	case Eval:
		e.eval(s.Val, sc)
	case Return:
		if s.Val == nil {
			return &Val{}
		}
		v := e.eval(s.Val, sc)
		if e.ctx.Has(facts.Handler) {
			// what a tool handler returns, the client hands the model:
			// a string, or the strings of a result object
			// ({"content": [{"type": "text", "text": …}]}, {"note": …})
			if strs := returned(v, 0, nil); len(strs) > 0 {
				e.sink(facts.ModelOutput, "return", clipLine(strs[0]), nil, strs, at)
			}
		}
		return withStep(v, at)
	case For:
		it := e.eval(s.Val, sc)
		e.loop++
		var r *Val
		for i, el := range loopValues(it) {
			for _, d := range s.Dst {
				e.assign(d, el, sc, at)
			}
			r = merge(r, e.block(s.Body, sc))
			if i == 0 {
				// a second pass sees what the first left in the loop's
				// variables
				r = merge(r, e.block(s.Body, sc))
			}
		}
		e.loop--
		if r != nil && len(r.T)+len(r.S) > 0 {
			return r
		}
	case While:
		forever := s.Val == nil
		if s.Val != nil {
			c := e.eval(s.Val, sc)
			if v, ok := c.str(); ok && (v == "True" || v == "true" || v == "1" || v == ":") {
				forever = true
			}
		}
		e.loop++
		if forever {
			e.forever++
		}
		r := merge(e.block(s.Body, sc), e.block(s.Body, sc))
		if forever {
			e.forever--
		}
		e.loop--
		if r != nil && len(r.T)+len(r.S) > 0 {
			return r
		}
	case With:
		v := e.eval(s.Val, sc)
		for _, d := range s.Dst {
			e.assign(d, withStep(v, at), sc, at)
		}
		if r := e.block(s.Body, sc); r != nil && len(r.T)+len(r.S) > 0 {
			return r
		}
	case Block:
		if s.Val != nil {
			e.eval(s.Val, sc)
		}
		if r := e.block(s.Body, sc); r != nil && len(r.T)+len(r.S) > 0 {
			return r
		}
	case Def:
		sc.vars[s.Fn.Name] = &Val{Fn: &closure{fn: s.Fn, scope: sc, unit: e.cur}, Q: ""}
		for _, d := range s.Fn.Decorators {
			e.decorator(d, s.Fn, sc)
		}
	case Class:
		e.declareClass(s.Fn, sc)
	}
	return nil
}

// target is the scope an assignment to d binds in: the innermost, or for
// an Outer assignment the enclosing scope that already holds the name,
// and the outermost when none does (JavaScript's implicit global).
func target(s *Stmt, d *Expr, sc *scope) *scope {
	if !s.Outer || d.Op != Name {
		return sc
	}
	c := sc
	for ; ; c = c.parent {
		if _, ok := c.vars[d.S]; ok || c.parent == nil {
			return c
		}
	}
}

// decorator evaluates a decorator expression for its effects: a
// registration call sees the function as its argument.
func (e *engine) decorator(d *Expr, f *Func, sc *scope) {
	e.eval(d, sc)
}

func (e *engine) assign(d *Expr, v *Val, sc *scope, at facts.Span) {
	switch d.Op {
	case Name:
		if d.S == "_" {
			return
		}
		sc.vars[d.S] = v
	case Attr:
		obj := e.eval(d.X, sc)
		e.setter(obj, d, v, at)
		obj.setField(d.S, v)
		obj.addTaints(v.T)
		if obj.Q != "" && d.S == "__doc__" {
			return
		}
	case Index:
		obj := e.eval(d.X, sc)
		k := ""
		if len(d.Args) > 0 {
			if kv := e.eval(d.Args[0], sc); kv != nil {
				k, _ = kv.str()
			}
		}
		obj.setField(k, v)
		obj.addTaints(v.T)
	case List:
		for i, x := range d.Args {
			ev := v
			if v.El != nil {
				if f, ok := v.El[fmt.Sprint(i)]; ok {
					ev = f
				} else if f, ok := v.El[""]; ok {
					ev = merge(f, taintOnly(v))
				}
			}
			e.assign(x, ev, sc, at)
		}
	default:
		e.eval(d, sc)
	}
}

// setter applies a vocabulary entry marked setter when its field is
// assigned, as a call with the value: cmd.Stdin = conn binds the
// connection to the command's input.
func (e *engine) setter(obj *Val, d *Expr, v *Val, at facts.Span) {
	var role *vocab.Role
	q := ""
	if obj.Q != "" {
		q = obj.Q + "." + d.S
		role = vocab.Call(e.lang(), q)
	}
	if role == nil {
		role = vocab.Method(e.lang(), d.S, exprName(d.X))
	}
	if role == nil || !role.Entry.Has("setter") {
		return
	}
	a := &args{pos: []*Val{v}, kw: map[string]*Val{}, order: []*Val{v}, names: []string{""}, recv: obj}
	e.apply(role, q, d.S, a, nil, at)
}

// elements is what iterating v yields.
// ordered are a list's elements in order; a value that is no list is
// its one element, and nothing is none.
func ordered(v *Val) []*Val {
	if v == nil {
		return nil
	}
	var out []*Val
	for i := 0; i < 1<<12; i++ {
		f, ok := v.El[fmt.Sprint(i)]
		if !ok {
			break
		}
		out = append(out, f)
	}
	if len(out) == 0 && (len(v.S) > 0 || len(v.T) > 0 || len(v.El) > 0) {
		out = []*Val{elements(v)}
	}
	return out
}

// maxReturned bounds the strings read from one returned value.
const maxReturned = 16

// returned gathers the strings a returned value holds: its own, then its
// fields' and elements' (not their keys), three levels deep.
func returned(v *Val, depth int, out []string) []string {
	if v == nil || depth > 3 || len(out) >= maxReturned {
		return out
	}
	for _, s := range v.S {
		if len(out) < maxReturned {
			out = append(out, s)
		}
	}
	keys := make([]string, 0, len(v.El))
	for k := range v.El {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = returned(v.El[k], depth+1, out)
	}
	return out
}

func elements(v *Val) *Val {
	if v == nil {
		return &Val{}
	}
	if len(v.El) == 0 {
		out := &Val{T: v.T, S: v.S}
		if v.Env {
			out.T = v.T
		}
		return out
	}
	var parts []*Val
	keys := make([]string, 0, len(v.El))
	for k := range v.El {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		parts = append(parts, v.El[k])
	}
	out := merge(parts...).clone()
	out.addTaints(v.T)
	return out
}

// --- expressions

func (e *engine) eval(x *Expr, sc *scope) *Val {
	if x == nil || !e.tick() {
		return &Val{}
	}
	if x.Line > 0 {
		e.curLine = x.Line
	}
	switch x.Op {
	case Str:
		return &Val{S: []string{clip(x.S)}}
	case Num:
		return &Val{S: []string{x.S}}
	case Name:
		return e.name(x.S, sc)
	case Attr:
		return e.attr(x, sc)
	case Index:
		return e.index(x, sc)
	case Call:
		return e.call(x, sc)
	case Bin:
		if len(x.Args) != 2 {
			return taintOnly(e.evalAll(x.Args, sc)...)
		}
		a, b := e.eval(x.Args[0], sc), e.eval(x.Args[1], sc)
		switch x.S {
		case "+", "/":
			if x.S == "/" && !(a.Q == "pathlib.Path" || len(a.S) > 0 && len(b.S) > 0) {
				return taintOnly(a, b)
			}
			sep := ""
			if x.S == "/" {
				sep = "/"
			}
			v := concatSep(a, b, sep)
			if x.S == "/" && a.Q == "pathlib.Path" {
				v.Q = "pathlib.Path"
			}
			return v
		case "%":
			if e.lang() == "python" && len(a.S) > 0 {
				if v := percentFormat(a, b); v != nil {
					return v
				}
			}
			return concat(a, b)
		case "or", "||", "??", "and", "&&":
			return merge(a, b)
		}
		return taintOnly(a, b)
	case Fmt:
		var v *Val = &Val{S: []string{""}}
		for _, p := range x.Args {
			v = concat(v, e.eval(p, sc))
		}
		return v
	case List:
		v := &Val{El: map[string]*Val{}}
		n := 0
		for i, a := range x.Args {
			ev := e.eval(a, sc)
			if i < len(x.Keys) && x.Keys[i] == "*" {
				for _, el := range ordered(ev) {
					v.setField(fmt.Sprint(n), el)
					v.addTaints(el.T)
					n++
				}
				continue
			}
			v.setField(fmt.Sprint(n), ev)
			v.addTaints(ev.T)
			n++
		}
		return v
	case Dict:
		v := &Val{El: map[string]*Val{}}
		if x.X != nil {
			// a typed literal (Go's T{...}): the type's methods apply
			if t := e.eval(x.X, sc); t.Cls != nil {
				v.Cls, v.Inst = t.Cls, true
			} else {
				v.Q = t.Q
			}
		}
		for i, a := range x.Args {
			ev := e.eval(a, sc)
			k := ""
			if i < len(x.Keys) {
				k = x.Keys[i]
			}
			if k == "**" {
				for fk, fv := range ev.El {
					v.setField(fk, fv)
				}
				v.addTaints(allTaints(ev, 3))
				continue
			}
			v.setField(k, ev)
			v.addTaints(ev.T)
		}
		if m := stratumRequest(v); m != "" {
			e.effect(facts.Miner, "a Stratum mining request ("+m+")", e.span(x.Line, x.Col))
		}
		return v
	case Lambda:
		return &Val{Fn: &closure{fn: x.Fn, scope: sc, unit: e.cur}}
	case Other:
		return merge(e.evalAll(x.Args, sc)...)
	case Elem:
		return elements(e.eval(x.X, sc))
	case Comp:
		return e.comprehension(x, sc)
	}
	return &Val{}
}

func (e *engine) evalAll(xs []*Expr, sc *scope) []*Val {
	out := make([]*Val, len(xs))
	for i, x := range xs {
		out[i] = e.eval(x, sc)
	}
	return out
}

func clip(s string) string {
	if len(s) > maxStrLen {
		return s[:maxStrLen]
	}
	return s
}

func concat(a, b *Val) *Val { return concatSep(a, b, "") }

// concatSep is a+sep+b as strings: every pair of known strings, with "?"
// standing for an unknown side, and both sides' taints.
func concatSep(a, b *Val, sep string) *Val {
	out := &Val{}
	out.addTaints(allTaints(a, 3))
	out.addTaints(allTaints(b, 3))
	as, bs := a.S, b.S
	if len(as) == 0 && len(bs) == 0 {
		return out
	}
	if len(as) == 0 {
		as = []string{"?"}
	}
	if len(bs) == 0 {
		bs = []string{"?"}
	}
	for _, x := range as {
		for _, y := range bs {
			s := x + sep + y
			if sep == "/" {
				s = strings.TrimSuffix(x, "/") + "/" + strings.TrimPrefix(y, "/")
			}
			out.addStr(s)
		}
	}
	return out
}

func (e *engine) name(n string, sc *scope) *Val {
	if v, ok := sc.lookup(n); ok {
		return v
	}
	if st := e.cur; st != nil && st.scope != nil && sc != st.scope {
		if v, ok := st.scope.lookup(n); ok {
			return v
		}
	}
	if e.lang() == "shell" {
		// $1…$9 and $@ inside a function are its arguments
		if at, ok := sc.lookup("@"); ok && (n == "@" || n == "*" || len(n) == 1 && n[0] >= '1' && n[0] <= '9') {
			if n == "@" || n == "*" {
				return at
			}
			if f, ok := at.El[string(rune(n[0]-1))]; ok {
				return f
			}
			return taintOnly(at)
		}
		return e.shellName(n)
	}
	// A builtin or a global the vocabulary knows.
	v := &Val{Q: n}
	if r := vocab.Call(e.lang(), n); r != nil && r.Kind == "env-map" {
		return e.envMap(n)
	}
	return v
}

func (e *engine) lang() string {
	if e.cur == nil {
		return ""
	}
	return e.cur.u.Lang
}

func (e *engine) envMap(q string) *Val {
	v := e.source(facts.WholeEnv, q, e.span(e.line(), 0))
	v.Env, v.Q = true, q
	return v
}

// line is the line of the statement being evaluated, for facts found in
// a name's resolution.
func (e *engine) line() int32 { return e.curLine }

func (e *engine) attr(x *Expr, sc *scope) *Val {
	recv := e.eval(x.X, sc)
	if recv.Env {
		return e.envVar(x.S, recv)
	}
	if f, ok := recv.El[x.S]; ok {
		return f
	}
	if recv.Cls != nil {
		if m := e.method(recv, x.S); m != nil {
			return m
		}
	}
	if recv.Q != "" {
		q := recv.Q + "." + x.S
		if r := vocab.Call(e.lang(), q); r != nil && r.Kind == "env-map" {
			return e.envMap(q)
		}
		v := &Val{Q: q}
		v.addTaints(recv.T)
		if recv.El != nil && !recv.Env {
			// an object's field, read once, is that field from then on,
			// so what a method stores in it stays (req.Header.Set)
			recv.setField(x.S, v)
		}
		return v
	}
	if recv.El != nil && !recv.Env {
		// a field of an object carries the object's own taints, not its
		// other fields'
		v := &Val{T: slices.Clone(recv.T)}
		recv.setField(x.S, v)
		return v
	}
	return taintOnly(recv)
}

// envVar is one environment variable read from the environment map.
func (e *engine) envVar(name string, env *Val) *Val {
	at := e.span(e.line(), 0)
	switch strings.ToUpper(name) {
	case "HOME", "USERPROFILE":
		return &Val{S: []string{"~"}}
	case "APPDATA":
		return &Val{S: []string{"~/appdata/roaming"}}
	case "LOCALAPPDATA":
		return &Val{S: []string{"~/appdata/local"}}
	}
	if vocab.SecretEnv(name) {
		return e.source(facts.SecretEnv, name, at)
	}
	return e.source(facts.EnvVar, name, at)
}

func (e *engine) index(x *Expr, sc *scope) *Val {
	obj := e.eval(x.X, sc)
	var key *Val
	if len(x.Args) > 0 {
		key = e.eval(x.Args[0], sc)
	}
	k, known := key.str()
	if obj.Env {
		if known {
			// a name taken from a table in a loop may be any of its strings
			var out []*Val
			for _, n := range key.S {
				out = append(out, e.envVar(n, obj))
			}
			return merge(out...)
		}
		return obj
	}
	if known && e.lang() == "js" && obj.El[k] == nil {
		// obj["name"] is obj.name: a module's function, a class's method
		if obj.Cls != nil {
			if m := e.method(obj, k); m != nil {
				return m
			}
		}
		if obj.Q != "" {
			q := obj.Q + "." + k
			if r := vocab.Call(e.lang(), q); r != nil && r.Kind == "env-map" {
				return e.envMap(q)
			}
			v := &Val{Q: q}
			v.addTaints(obj.T)
			return v
		}
	}
	if known {
		if f, ok := obj.El[k]; ok {
			return f
		}
	}
	// a table read with a value as its key yields what the key selects: a
	// substitution table maps a secret character by character
	kt := taintOnly(key)
	if f, ok := obj.El[""]; ok {
		return merge(f, taintOnly(obj), kt)
	}
	if !known && len(obj.El) > 0 {
		return merge(elements(obj), kt)
	}
	v := taintOnly(obj, key)
	if len(obj.S) > 0 && len(obj.El) == 0 {
		v.S = obj.S // a slice of a string is still mostly that string
	}
	return v
}

func (e *engine) bindImport(st *unitState, im Import) {
	v := &Val{Q: normModule(st.u.Lang, im.Module)}
	// a JavaScript default import of a package is the package itself
	if im.Member != "" && im.Member != "*" && !(st.u.Lang == "js" && im.Member == "default") {
		v.Q += "." + im.Member
	}
	if target := e.resolveModule(st, im.Module); target != nil {
		e.runUnit(target)
		if target.scope != nil {
			if im.Member == "*" {
				for k, x := range target.scope.vars {
					if k != jsExports && !strings.HasPrefix(k, "\x00") {
						st.scope.vars[k] = x
					}
				}
				return
			}
			if x, ok := exported(target, v.Q, im.Member); ok {
				v = x
			}
		}
	}
	st.scope.vars[im.Local] = v
}

// jsExports is the variable a CommonJS module's exports live in.
const jsExports = "module.exports"

// exported is what importing member of a unit of the artifact yields, and
// whether the unit has it: a top-level name, or a field of a JavaScript
// module's exports; the member "" is the whole module (a CommonJS module
// that exports one function or class is that value), "default" its
// default export.
func exported(target *unitState, q, member string) (*Val, bool) {
	vars := target.scope.vars
	me := vars[jsExports]
	switch member {
	case "":
		if me != nil && (me.Fn != nil || me.Cls != nil) {
			return me, true
		}
		mv := &Val{Q: q, El: map[string]*Val{}}
		if me != nil {
			for k, x := range me.El {
				mv.setField(k, x)
			}
		}
		keys := make([]string, 0, len(vars))
		for k := range vars {
			if _, ok := mv.El[k]; !ok && k != jsExports && !strings.HasPrefix(k, "\x00") {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			mv.setField(k, vars[k])
		}
		return mv, true
	case "default":
		if x, ok := vars["default"]; ok {
			return x, true
		}
		if me != nil {
			if x, ok := me.El["default"]; ok {
				return x, true
			}
			return me, true
		}
	default:
		if x, ok := vars[member]; ok {
			return x, true
		}
		if me != nil {
			if x, ok := me.El[member]; ok {
				return x, true
			}
		}
	}
	return nil, false
}

// normModule puts a module name in the form the vocabulary is written in.
func normModule(lang, m string) string {
	if lang == "js" {
		m = strings.TrimPrefix(m, "node:")
		if m == "fs/promises" {
			return "fs.promises"
		}
		if m == "dns/promises" {
			return "dns.promises"
		}
	}
	if lang == "go" {
		if i := strings.LastIndexByte(m, '/'); i >= 0 {
			return m[i+1:]
		}
	}
	return m
}

// resolveModule finds the unit of the artifact a module name refers to.
func (e *engine) resolveModule(st *unitState, mod string) *unitState {
	dir := path.Dir(st.u.Path)
	var cands []string
	switch st.u.Lang {
	case "python":
		rel := strings.TrimLeft(mod, ".")
		up := len(mod) - len(rel)
		base := dir
		for i := 1; i < up; i++ {
			base = path.Dir(base)
		}
		p := strings.ReplaceAll(rel, ".", "/")
		if up > 0 {
			cands = append(cands, path.Join(base, p+".py"), path.Join(base, p, "__init__.py"))
		} else {
			for d := dir; ; d = path.Dir(d) {
				cands = append(cands, path.Join(d, p+".py"), path.Join(d, p, "__init__.py"))
				if d == "." || d == "/" || d == "" {
					break
				}
			}
		}
	case "js":
		if !strings.HasPrefix(mod, ".") {
			return nil
		}
		p := path.Join(dir, mod)
		for _, ext := range []string{"", ".js", ".mjs", ".cjs", ".ts", ".mts", ".tsx", ".jsx", "/index.js", "/index.ts"} {
			cands = append(cands, p+ext)
		}
		if strings.HasSuffix(p, ".js") {
			cands = append(cands, strings.TrimSuffix(p, ".js")+".ts")
		}
	default:
		return nil
	}
	for _, c := range cands {
		for _, t := range e.byPath[path.Clean(c)] {
			if t != st {
				return t
			}
		}
	}
	return nil
}
