package flow

import (
	"github.com/metahub-ai/attest/checks/facts"
)

func (e *engine) declareClass(f *Func, sc *scope) {
	cl := &class{name: f.Name, methods: map[string]*closure{}}
	body := &scope{vars: map[string]*Val{}, parent: sc}
	for _, s := range f.Body {
		switch s.Op {
		case Def:
			cl.methods[s.Fn.Name] = &closure{fn: s.Fn, scope: sc, unit: e.cur}
		default:
			e.stmt(s, body)
		}
	}
	for _, b := range f.Decorators { // bases are lowered as decorators
		cl.bases = append(cl.bases, e.eval(b, sc))
	}
	v := &Val{Cls: cl, El: map[string]*Val{}}
	for k, x := range body.vars {
		v.setField(k, x)
	}
	sc.vars[f.Name] = v
}

// ctorFields are the fields an instance of a class holds once its
// constructor ran with unknown arguments, computed once per class; none
// while f is the constructor itself.
func (e *engine) ctorFields(cls *Val, f *Func) map[string]*Val {
	if e.ctors == nil {
		e.ctors = map[*class]map[string]*Val{}
	}
	if f.Name == "__init__" || f.Name == "constructor" {
		return nil
	}
	if fs, ok := e.ctors[cls.Cls]; ok {
		return fs
	}
	e.ctors[cls.Cls] = nil // a constructor that reaches this class again sees none
	inst := &Val{Cls: cls.Cls, Inst: true, El: map[string]*Val{}}
	for k, x := range cls.El {
		inst.El[k] = x
	}
	for _, name := range []string{"__init__", "constructor"} {
		if m := e.method(inst, name); m != nil && m.Fn != nil {
			e.invoke(m.Fn, &args{kw: map[string]*Val{}}, e.span(m.Fn.fn.Line, 0))
			break
		}
	}
	e.ctors[cls.Cls] = inst.El
	return inst.El
}

func (e *engine) method(inst *Val, name string) *Val {
	var find func(c *class, depth int) *closure
	find = func(c *class, depth int) *closure {
		if c == nil || depth > 8 {
			return nil
		}
		if m, ok := c.methods[name]; ok {
			return m
		}
		for _, b := range c.bases {
			if m := find(b.Cls, depth+1); m != nil {
				return m
			}
		}
		return nil
	}
	m := find(inst.Cls, 0)
	if m == nil {
		return nil
	}
	b := *m
	if inst.Inst {
		b.self = inst
	}
	return &Val{Fn: &b}
}

func (e *engine) instantiate(cls *Val, a *args, at facts.Span) *Val {
	inst := &Val{Cls: cls.Cls, Inst: true, El: map[string]*Val{}}
	for k, v := range cls.El {
		inst.El[k] = v
	}
	for _, ctor := range []string{"__init__", "constructor"} {
		if m := e.method(inst, ctor); m != nil && m.Fn != nil {
			e.invoke(m.Fn, a, at)
			break
		}
	}
	return inst
}
