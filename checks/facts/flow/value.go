package flow

import (
	"slices"

	"github.com/metahub-ai/attest/checks/facts"
)

// Bounds on abstract values, so that no input can make the engine's state
// grow without limit.
const (
	maxTaints = 12
	maxStrs   = 8
	maxStrLen = 64 << 10
	maxSteps  = 8
	maxFields = 64
	// maxLoopTable bounds the literal tables a loop is followed through
	// element by element.
	maxLoopTable = 256
)

// taint is one source a value carries, with the steps it took.
type taint struct {
	src   int // index into the set's sources
	steps []facts.Span
}

// Val is an abstract value: the sources it carries, the strings it may be,
// what it is when it names a module, function or object, and its fields.
type Val struct {
	T []taint
	S []string
	// Q is the qualified name of a module, function or typed object
	// ("requests", "requests.post", "requests.Session").
	Q string
	// Fn is a function value of the artifact's own code.
	Fn *closure
	// Cls is a class of the artifact's own code, or an instance's class.
	Cls  *class
	Inst bool
	// El holds fields, dictionary keys and list elements ("" is any
	// element).
	El map[string]*Val
	// Env marks the environment as a map: a key read is that variable,
	// the whole is the whole environment.
	Env bool
	// Role is the vocabulary role of the callable Q names, when known.
	Src bool // the value was produced by a source call, and is the file or stream itself
	// Switch marks a command's bare flag (--now, -q): present, with no
	// value of its own.
	Switch bool
}

type closure struct {
	fn    *Func
	scope *scope
	unit  *unitState
	self  *Val // a bound method's receiver
}

type class struct {
	name    string
	methods map[string]*closure
	bases   []*Val
}

func (v *Val) clone() *Val {
	if v == nil {
		return &Val{}
	}
	c := *v
	c.T = slices.Clone(v.T)
	c.S = slices.Clone(v.S)
	return &c
}

// addTaint adds t unless the value already carries its source.
func (v *Val) addTaint(t taint) {
	for _, x := range v.T {
		if x.src == t.src {
			return
		}
	}
	if len(v.T) < maxTaints {
		v.T = append(v.T, t)
	}
}

func (v *Val) addTaints(ts []taint) {
	for _, t := range ts {
		v.addTaint(t)
	}
}

func (v *Val) addStr(s string) {
	if len(s) > maxStrLen {
		s = s[:maxStrLen]
	}
	if slices.Contains(v.S, s) || len(v.S) >= maxStrs {
		return
	}
	v.S = append(v.S, s)
}

// merge is a value that may be any of vs: the union of their taints and
// strings. A single operand is returned as is.
func merge(vs ...*Val) *Val {
	var live []*Val
	for _, v := range vs {
		if v != nil {
			live = append(live, v)
		}
	}
	switch len(live) {
	case 0:
		return &Val{}
	case 1:
		return live[0]
	}
	out := &Val{}
	// an alternative that carries data of unknown text (a file read, a
	// secret) beside known strings stands as "?" among them, so a command
	// built from the merge still shows where the data goes
	// (readFileSync(key) or '' in a curl -d)
	unknown, known := false, false
	for _, v := range live {
		unknown = unknown || len(v.S) == 0 && len(v.T) > 0 && len(v.El) == 0 && v.Fn == nil && v.Cls == nil
		known = known || len(v.S) > 0
	}
	if unknown && known {
		out.addStr("?")
	}
	for _, v := range live {
		out.addTaints(v.T)
		for _, s := range v.S {
			out.addStr(s)
		}
		if out.Q == "" {
			out.Q = v.Q
		}
		if out.Fn == nil {
			out.Fn = v.Fn
		}
		if out.Cls == nil {
			out.Cls, out.Inst = v.Cls, v.Inst
		}
		out.Env = out.Env || v.Env
		for k, e := range v.El {
			out.setField(k, merge(out.El[k], e))
		}
	}
	return out
}

// taintOnly is a value that carries v's taints (and those of its fields)
// but is nothing else: the result of an operation the engine does not
// model.
func taintOnly(vs ...*Val) *Val {
	out := &Val{}
	for _, v := range vs {
		if v == nil {
			continue
		}
		out.addTaints(allTaints(v, 3))
	}
	return out
}

// allTaints are v's taints and its fields', to a depth.
func allTaints(v *Val, depth int) []taint {
	if v == nil {
		return nil
	}
	if depth == 0 || len(v.El) == 0 {
		return v.T
	}
	out := &Val{T: slices.Clone(v.T)}
	keys := make([]string, 0, len(v.El))
	for k := range v.El {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out.addTaints(allTaints(v.El[k], depth-1))
	}
	return out.T
}

func (v *Val) setField(k string, e *Val) {
	if v.El == nil {
		v.El = map[string]*Val{}
	}
	if _, ok := v.El[k]; !ok && len(v.El) >= maxFields {
		k = ""
		e = merge(v.El[""], e)
	}
	v.El[k] = e
}

// withStep returns v with span appended to each taint's steps.
func withStep(v *Val, at facts.Span) *Val {
	if v == nil || len(v.T) == 0 {
		return v
	}
	c := v.clone()
	for i, t := range c.T {
		if n := len(t.steps); n > 0 && t.steps[n-1].Line == at.Line && t.steps[n-1].Path == at.Path {
			continue
		}
		if len(t.steps) < maxSteps {
			c.T[i].steps = append(slices.Clone(t.steps), at)
		}
	}
	return c
}

// str returns the value's first string, and whether it has one.
func (v *Val) str() (string, bool) {
	if v == nil || len(v.S) == 0 {
		return "", false
	}
	return v.S[0], true
}
