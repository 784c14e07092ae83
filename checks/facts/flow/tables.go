package flow

import (
	"strconv"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// loopValues are the values a loop's variable takes, in turn: one value
// that may be any element, or, for a literal table longer than a value
// holds strings, its elements a few at a time, so that no name in the
// table is lost.
func loopValues(it *Val) []*Val {
	els := ordered(it)
	if len(els) <= maxStrs || len(els) > maxLoopTable {
		return []*Val{elements(it)}
	}
	var out []*Val
	for i := 0; i < len(els); i += maxStrs {
		part := merge(els[i:min(i+maxStrs, len(els))]...).clone()
		part.addTaints(it.T)
		out = append(out, part)
	}
	return out
}

// comprehension calls a comprehension's function with each element of a
// literal table in turn, so the list it builds keeps their order (the
// characters of a string spelled in codes); any other iterable gives one
// call with any element.
func (e *engine) comprehension(x *Expr, sc *scope) *Val {
	it := e.eval(x.X, sc)
	c := &closure{fn: x.Fn, scope: sc, unit: e.cur}
	els := ordered(it)
	if len(els) <= 1 || len(els) > maxLoopTable {
		els = []*Val{elements(it)}
	}
	out := &Val{El: map[string]*Val{}}
	at := e.span(x.Line, x.Col)
	for i, el := range els {
		r := e.invoke(c, &args{pos: []*Val{el}, order: []*Val{el}, names: []string{""}, kw: map[string]*Val{}}, at)
		out.setField(strconv.Itoa(i), r)
		out.addTaints(r.T)
	}
	return out
}

// mapEach calls fn (a function of the artifact or one the vocabulary
// knows) with each element of a literal table in turn and returns the
// list of results; nil when it cannot.
func (e *engine) mapEach(fn, table *Val, at facts.Span) *Val {
	if fn == nil || table == nil {
		return nil
	}
	els := ordered(table)
	if len(els) <= 1 || len(els) > maxLoopTable {
		return nil
	}
	var role *vocab.Role
	if fn.Fn == nil {
		if fn.Q == "" {
			return nil
		}
		if role = vocab.Call(e.lang(), fn.Q); role == nil {
			return nil
		}
	}
	out := &Val{El: map[string]*Val{}}
	for i, el := range els {
		a := &args{pos: []*Val{el}, order: []*Val{el}, names: []string{""}, kw: map[string]*Val{}}
		var r *Val
		if fn.Fn != nil {
			r = e.invoke(fn.Fn, a, at)
		} else {
			r = e.apply(role, fn.Q, "", a, nil, at)
		}
		out.setField(itoa(i), r)
		out.addTaints(r.T)
	}
	out.addTaints(allTaints(table, 3))
	return out
}
