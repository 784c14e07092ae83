package flow

import (
	"slices"
	"strconv"
	"strings"
)

// percentFormat is tmpl % args as strings (nil when no template of tmpl
// has a conversion): a tuple fills the conversions in turn, a dict the
// named ones, anything else the first.
func percentFormat(tmpl, args *Val) *Val {
	var pos []string
	kw := map[string]string{}
	switch {
	case len(args.El) > 0 && args.El["0"] != nil:
		for _, el := range ordered(args) {
			pos = append(pos, firstOr(el.S, "?"))
		}
	case len(args.El) > 0:
		for k, el := range args.El {
			kw[k] = firstOr(el.S, "?")
		}
	default:
		pos = []string{firstOr(args.S, "?")}
	}
	out := &Val{}
	out.addTaints(allTaints(tmpl, 3))
	out.addTaints(allTaints(args, 3))
	any := false
	for _, t := range tmpl.S {
		if s, ok := pyPercent(t, pos, kw); ok {
			out.addStr(s)
			any = true
		}
	}
	if !any {
		return nil
	}
	return out
}

// methodFormat is tmpl.format(...) as strings (nil when no template has a
// field).
func methodFormat(tmpl *Val, a *args) *Val {
	var pos []string
	for _, v := range a.pos {
		pos = append(pos, firstOr(v.S, "?"))
	}
	kw := map[string]string{}
	for k, v := range a.kw {
		kw[k] = firstOr(v.S, "?")
	}
	out := &Val{}
	out.addTaints(allTaints(tmpl, 3))
	for _, v := range slices.Concat(a.pos, a.order) {
		out.addTaints(allTaints(v, 3))
	}
	any := false
	for _, t := range tmpl.S {
		if s, ok := pyFormat(t, pos, kw); ok {
			out.addStr(s)
			any = true
		}
	}
	if !any {
		return nil
	}
	return out
}

// pyFormat fills a str.format template: {} and {N} from the positional
// values, {name} from the keyword values, "?" for what is unknown; format
// specs and conversions ({0!r:>8}) are dropped. ok is false when the
// template has no field.
func pyFormat(tmpl string, pos []string, kw map[string]string) (string, bool) {
	var b strings.Builder
	next, fields := 0, 0
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case c == '{' && i+1 < len(tmpl) && tmpl[i+1] == '{', c == '}' && i+1 < len(tmpl) && tmpl[i+1] == '}':
			b.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(tmpl[i:], '}')
			if end < 0 {
				b.WriteString(tmpl[i:])
				return b.String(), fields > 0
			}
			name := tmpl[i+1 : i+end]
			if j := strings.IndexAny(name, "!:"); j >= 0 {
				name = name[:j]
			}
			fields++
			v := "?"
			switch n, err := strconv.Atoi(name); {
			case name == "":
				if next < len(pos) {
					v = pos[next]
				}
				next++
			case err == nil:
				if n >= 0 && n < len(pos) {
					v = pos[n]
				}
			default:
				if s, ok := kw[name]; ok {
					v = s
				}
			}
			b.WriteString(v)
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), fields > 0
}

// pyPercent fills a printf-style template (tmpl % args): %s, %d, %r and
// the like from pos in turn, %(name)s from kw, "?" for what is unknown.
// ok is false when the template has no conversion.
func pyPercent(tmpl string, pos []string, kw map[string]string) (string, bool) {
	var b strings.Builder
	next, fields := 0, 0
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '%' || i+1 >= len(tmpl) {
			b.WriteByte(c)
			continue
		}
		if tmpl[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		name, keyed := "", false
		if tmpl[j] == '(' {
			end := strings.IndexByte(tmpl[j:], ')')
			if end < 0 {
				b.WriteString(tmpl[i:])
				break
			}
			name, keyed = tmpl[j+1:j+end], true
			j += end + 1
		}
		for j < len(tmpl) && strings.IndexByte("#0- +.0123456789*", tmpl[j]) >= 0 {
			j++
		}
		if j >= len(tmpl) || strings.IndexByte("sdirfgexXocaub", tmpl[j]) < 0 {
			b.WriteByte(c)
			continue
		}
		fields++
		v := "?"
		if keyed {
			if s, ok := kw[name]; ok {
				v = s
			}
		} else {
			if next < len(pos) {
				v = pos[next]
			}
			next++
		}
		b.WriteString(v)
		i = j
	}
	return b.String(), fields > 0
}
