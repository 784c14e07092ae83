package vocab

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// Matcher is a vocabulary pattern that is searched only where a match can
// begin. Most patterns open on a word from a list ("ask|request|…"): the
// sentence is scanned for word starts that begin with one of those words,
// and the pattern, anchored, is tried there alone. An unanchored search
// runs every state of a large alternation over every byte of the sentence
// instead, and prose is most of the time a document takes to read.
type Matcher struct {
	// re is the pattern, compiled when first needed: a search from
	// leading words runs only the anchored form
	re func() *regexp.Regexp
	// anchored is the pattern at a candidate; after is the pattern right
	// after the byte before the candidate, for a candidate whose \b or ^
	// would read otherwise on a slice that starts there than in the whole
	// text.
	// Both are compiled when first needed: most are never needed.
	anchored, after func() *regexp.Regexp
	// starts[c] are the ways a match may begin with byte c; nil when a
	// match may begin otherwise. atBegin: a match may also begin at the
	// text's start whatever its first byte.
	starts  *[256][]start
	atBegin bool
	// required: literals one of which every match holds, checked before
	// anything runs.
	required []string
	// alts, when set, are the top-level alternatives searched one by
	// one, each its own way: one that may begin on any letter ("a
	// host.example") does not make every other one run unanchored.
	alts []*Matcher
	// ctx is the unanchored search from an offset, with the byte before
	// it as context.
	ctx func() *regexp.Regexp
}

// start is a literal a match may begin with; wordStart: a \b before it.
// begin: the text's start (^), with no literal.
type start struct {
	lit       string
	wordStart bool
	begin     bool
}

func newMatcher(expr string) (*Matcher, error) {
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	m := &Matcher{re: lazy(expr)}
	tree = tree.Simplify()
	m.required = required(tree)
	starts, ok := leading(tree, false)
	for _, st := range starts {
		ok = ok && (st.lit != "" || st.begin)
	}
	if !ok || len(starts) == 0 {
		if alts := alternatives(expr); alts != nil {
			for _, a := range alts {
				sub, err := newMatcher(a)
				if err != nil {
					m.alts = nil
					break
				}
				m.alts = append(m.alts, sub)
			}
			if m.alts != nil {
				return m, nil
			}
		}
		m.ctx = lazy(`^(?s:.)(?s:.*?)(` + expr + `)`)
		return m, nil
	}
	m.anchored = lazy(`^(?:` + expr + `)`)
	m.after = lazy(`^(?s:.)(?:` + expr + `)`)
	m.starts = new([256][]start)
	for _, st := range starts {
		if st.begin {
			m.atBegin = true
			continue
		}
		m.starts[st.lit[0]] = append(m.starts[st.lit[0]], st)
	}
	return m, nil
}

// lazy is a pattern compiled when it is first used.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// alternatives are the top-level branches of an alternation in the
// source of a pattern, unwrapped from one group around it; nil when the
// pattern is no alternation. The source is split rather than the parsed
// tree printed: printing a large tree costs more than compiling it.
func alternatives(expr string) []string {
	for {
		inner, ok := strings.CutPrefix(expr, "(?:")
		if !ok || !strings.HasSuffix(inner, ")") || closing(expr) != len(expr)-1 {
			break
		}
		expr = inner[:len(inner)-1]
	}
	if flagGroup.MatchString(expr) {
		return nil // flags set for the rest of a group would not carry over to the branches
	}
	out := splitTop(expr)
	if len(out) < 2 {
		return nil
	}
	return out
}

// flagGroup sets flags for the rest of its group: (?i), (?s-m).
var flagGroup = regexp.MustCompile(`\(\?[a-zA-Z-]+\)`)

// scan visits each byte of a pattern's source outside escapes and
// character classes, with the group depth after it, until visit says stop.
func scan(expr string, visit func(j, depth int) (stop bool)) {
	depth := 0
	for j := 0; j < len(expr); j++ {
		switch expr[j] {
		case '\\':
			j++
			continue
		case '[':
			j = classEnd(expr, j)
			continue
		case '(':
			depth++
		case ')':
			depth--
		}
		if visit(j, depth) {
			return
		}
	}
}

// closing is the offset of the parenthesis that closes the one that
// opens the pattern; -1 when there is none.
func closing(expr string) int {
	at := -1
	scan(expr, func(j, depth int) bool {
		if expr[j] == ')' && depth == 0 {
			at = j
			return true
		}
		return false
	})
	return at
}

// classEnd is the offset of the ] that ends the class opened at i.
func classEnd(expr string, i int) int {
	j := i + 1
	if j < len(expr) && expr[j] == '^' {
		j++
	}
	if j < len(expr) && expr[j] == ']' {
		j++
	}
	for ; j < len(expr); j++ {
		switch expr[j] {
		case '\\':
			j++
		case '[':
			if j+1 < len(expr) && expr[j+1] == ':' {
				if k := strings.Index(expr[j+2:], ":]"); k >= 0 {
					j += k + 3
				}
			}
		case ']':
			return j
		}
	}
	return len(expr)
}

// splitTop splits a pattern's source at its top-level |.
func splitTop(expr string) []string {
	var out []string
	from := 0
	scan(expr, func(j, depth int) bool {
		if expr[j] == '|' && depth == 0 {
			out = append(out, expr[from:j])
			from = j + 1
		}
		return false
	})
	return append(out, expr[from:])
}

// leading are the literals one of which every match begins with, each
// with whether a \b precedes it; ok is false when no such set is known.
func leading(re *syntax.Regexp, wb bool) ([]start, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []start{{lit: string(re.Rune), wordStart: wb}}, true
	case syntax.OpBeginText:
		return []start{{begin: true}}, true
	case syntax.OpCapture, syntax.OpPlus:
		return leading(re.Sub[0], wb)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return leading(re.Sub[0], wb)
		}
	case syntax.OpConcat:
		// a \b before a part holds for whatever begins there; an optional
		// part adds its own beginnings to those of what follows it
		var out []start
		for _, sub := range re.Sub {
			switch {
			case sub.Op == syntax.OpWordBoundary:
				wb = true
			case sub.Op == syntax.OpQuest || sub.Op == syntax.OpStar || sub.Op == syntax.OpRepeat && sub.Min == 0:
				l, ok := leading(sub.Sub[0], wb)
				if !ok {
					return nil, false
				}
				out = append(out, l...)
			default:
				l, ok := leading(sub, wb)
				if !ok {
					return nil, false
				}
				return append(out, l...), true
			}
		}
	case syntax.OpAlternate:
		var out []start
		for _, sub := range re.Sub {
			l, ok := leading(sub, wb)
			if !ok {
				return nil, false
			}
			out = append(out, l...)
		}
		return out, true
	case syntax.OpCharClass:
		// a small class of bytes is as good as literals
		var out []start
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r >= 0x80 || len(out) >= 16 {
					return nil, false
				}
				out = append(out, start{lit: string(r), wordStart: wb})
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

// Absent reports that s holds none of the literals every match holds, so
// no match is possible.
func (m *Matcher) Absent(s string) bool {
	return len(m.required) > 0 && !slices.ContainsFunc(m.required, func(r string) bool { return strings.Contains(s, r) })
}

// Index is the leftmost match in s that begins at or after from, judged
// in the whole of s (a \b at from sees the byte before it); nil when there
// is none.
func (m *Matcher) Index(s string, from int) []int {
	if from > len(s) {
		return nil
	}
	if m.alts != nil {
		// the leftmost match of any branch; at one offset, the first
		// branch, as the alternation prefers it
		var best []int
		for _, a := range m.alts {
			if a.Absent(s) {
				continue
			}
			if loc := a.Index(s, from); loc != nil && (best == nil || loc[0] < best[0]) {
				best = loc
			}
		}
		return best
	}
	if m.starts == nil {
		if from == 0 {
			return m.re().FindStringIndex(s)
		}
		loc := m.ctx().FindStringSubmatchIndex(s[from-1:])
		if loc == nil {
			return nil
		}
		return []int{from - 1 + loc[2], from - 1 + loc[3]}
	}
	for i := from; i < len(s); i++ {
		if !(i == 0 && m.atBegin) && !m.begins(s, i) {
			continue
		}
		// after a byte that is no word byte, \b reads the same on the
		// slice as in the text, and only a leading ^ would not
		if i == 0 || !isWord(s[i-1]) && !m.atBegin {
			if loc := m.anchored().FindStringIndex(s[i:]); loc != nil {
				return []int{i, i + loc[1]}
			}
			continue
		}
		// one byte of context: a word byte is a rune of its own, and any
		// other byte is no word byte to \b however it decodes
		if loc := m.after().FindStringIndex(s[i-1:]); loc != nil {
			return []int{i, i - 1 + loc[1]}
		}
	}
	return nil
}

// begins reports that one of the literals a match begins with starts at
// i, with a word boundary there where the literal asks for one.
func (m *Matcher) begins(s string, i int) bool {
	cands := m.starts[s[i]]
	if len(cands) == 0 {
		return false
	}
	afterWord := i > 0 && isWord(s[i-1])
	return slices.ContainsFunc(cands, func(st start) bool {
		return !(st.wordStart && afterWord == isWord(st.lit[0])) && strings.HasPrefix(s[i:], st.lit)
	})
}

// Find is the leftmost match in s, as regexp's FindStringIndex.
func (m *Matcher) Find(s string) []int {
	if m.Absent(s) {
		return nil
	}
	return m.Index(s, 0)
}

// MatchString reports a match anywhere in s.
func (m *Matcher) MatchString(s string) bool { return m.Find(s) != nil }

// FindAll is up to n successive matches that do not overlap, as regexp's
// FindAllStringIndex.
func (m *Matcher) FindAll(s string, n int) [][]int {
	if m.Absent(s) {
		return nil
	}
	var out [][]int
	for pos := 0; len(out) < n && pos <= len(s); {
		loc := m.Index(s, pos)
		if loc == nil {
			break
		}
		out = append(out, loc)
		pos = max(loc[1], loc[0]+1)
	}
	return out
}

// Re is the pattern itself.
func (m *Matcher) Re() *regexp.Regexp { return m.re() }
