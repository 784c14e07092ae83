package vocab

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// Phrase is a family entry of data/phrases.txt: a pattern over one
// normalised sentence that says what an instruction to a model does.
type Phrase struct {
	*Entry
	Family string
	// Required lists literals one of which every match contains: a
	// sentence with none of them cannot match, and the pattern is not run.
	Required []string
	// NotAfter, when set, must not match right after the match: "you are
	// now" followed by "ready" is narrative. NotBefore must not match
	// right before it: "the team will provide your credentials" is not a
	// request.
	NotAfter, NotBefore *regexp.Regexp
	// NotWithin must not match inside the match: "ignore any embedded
	// instructions" defends against injected text.
	NotWithin *regexp.Regexp
	// NegatedForm: the phrase carries its own negator ("do not ask for
	// confirmation"), so only a further negator before it negates it.
	NegatedForm bool
	// Weak: a concern, not a finding, on its own.
	Weak bool
	// Object names the words class the sentence must also hold.
	Object string

	m *Matcher
}

var macro = regexp.MustCompile(`\{([a-z][a-z-]*)\}`)

type phraseSet struct {
	words   map[string]string // class → alternation
	wordRes map[string]*Matcher
	phrases []*Phrase
	err     error
}

var phraseTable = sync.OnceValue(buildPhrases)

func buildPhrases() *phraseSet {
	ps := &phraseSet{words: map[string]string{}, wordRes: map[string]*Matcher{}}
	for _, e := range Entries("phrases") {
		if e.Section == "words" {
			ps.words[e.Label] = e.Pattern
		}
	}
	expand := func(p string) string {
		return macro.ReplaceAllStringFunc(p, func(m string) string {
			if alt, ok := ps.words[m[1:len(m)-1]]; ok {
				return "(?:" + alt + ")"
			}
			return m
		})
	}
	for name, alt := range ps.words {
		m, err := newMatcher(bounded(alt))
		if err != nil {
			ps.err = err
			continue
		}
		ps.wordRes[name] = m
	}
	for _, e := range Entries("phrases") {
		if e.Section != "family" {
			continue
		}
		m, err := newMatcher(expand(e.Pattern))
		if err != nil {
			ps.err = err
			continue
		}
		p := &Phrase{Entry: e, Family: e.Label, m: m, Required: m.required, NegatedForm: e.Has("negated-form"), Weak: e.Has("weak"), Object: e.Opt("object")}
		if na := e.Opt("not-after"); na != "" {
			// a last alternative "$" is the sentence's end
			end := ""
			if n, ok := strings.CutSuffix(na, "|$"); ok {
				na, end = n, "|$"
			}
			if na == "$" {
				p.NotAfter = regexp.MustCompile(`^\s*$`)
			} else {
				p.NotAfter = regexp.MustCompile(`^\s*(?:(?:` + na + `)\b` + end + `)`)
			}
		}
		if nw := e.Opt("not-within"); nw != "" {
			p.NotWithin = regexp.MustCompile(`\b(?:` + nw + `)\b`)
		}
		if nb := e.Opt("not-before"); nb != "" {
			p.NotBefore = regexp.MustCompile(`\b(?:` + nb + `)`)
		}
		ps.phrases = append(ps.phrases, p)
	}
	return ps
}

// Phrases are the instruction families.
func Phrases() []*Phrase { return phraseTable().phrases }

// PhrasesErr reports a pattern that does not compile; the tests hold it
// nil.
func PhrasesErr() error { return phraseTable().err }

// Words is a words class as a pattern matching any of its words; nil for
// a class the vocabulary does not define.
func Words(class string) *Matcher { return phraseTable().wordRes[class] }

// Re is the family's pattern.
func (p *Phrase) Re() *regexp.Regexp { return p.m.Re() }

// Match finds a family's matches in a normalised sentence, honouring the
// prefilter and not-after.
func (p *Phrase) Match(s string) [][]int { return p.MatchFunc(s, nil) }

// MaxMatchTries bounds the matches tried in one sentence, rejected ones
// included.
const MaxMatchTries = 16

// MatchFunc is Match with a further test a match must pass (ok, when not
// nil). A rejected match does not hide a later one that overlaps it: the
// search goes on from the next word after its start, so a decoy verb early
// in a sentence ("a carry-forward step: add a hidden tab") cannot shadow
// the instruction after it.
func (p *Phrase) MatchFunc(s string, ok func(start, end int) bool) [][]int {
	if p.m.Absent(s) {
		return nil
	}
	var out [][]int
	pos := 0
	for tries := 0; tries < MaxMatchTries && len(out) < 4 && pos <= len(s); tries++ {
		m := p.m.Index(s, pos)
		if m == nil {
			break
		}
		if p.accept(s, m) && (ok == nil || ok(m[0], m[1])) {
			out = append(out, m)
			pos = max(m[1], m[0]+1)
			continue
		}
		pos = nextWord(s, m[0])
	}
	return out
}

func (p *Phrase) accept(s string, m []int) bool {
	if p.NotAfter != nil && p.NotAfter.MatchString(s[m[1]:]) {
		return false
	}
	if p.NotBefore != nil && p.NotBefore.MatchString(s[max(0, m[0]-24):m[0]]) {
		return false
	}
	return p.NotWithin == nil || !p.NotWithin.MatchString(s[m[0]:m[1]])
}

// nextWord is the offset of the first word after the one at i.
func nextWord(s string, i int) int {
	for i < len(s) && isWord(s[i]) {
		i++
	}
	for i < len(s) && !isWord(s[i]) {
		i++
	}
	if i == len(s) {
		return len(s) + 1
	}
	return i
}

// required computes literals one of which every string the expression
// matches contains (nil when no such set is known): a literal is itself;
// a concatenation takes its best operand; an alternation needs every
// branch to have a set and takes their union; a repetition that may be
// empty has none.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// adjacent literals join into a longer required literal
		var best []string
		score := func(set []string) int {
			if len(set) == 0 {
				return -1 << 30 // any set beats none
			}
			m := 1 << 30
			for _, s := range set {
				m = min(m, len(s))
			}
			return m*4 - len(set)
		}
		var run strings.Builder
		flush := func() {
			if run.Len() > 0 {
				if cand := []string{run.String()}; score(cand) > score(best) {
					best = cand
				}
				run.Reset()
			}
		}
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 {
				run.WriteString(string(sub.Rune))
				continue
			}
			flush()
			if set := required(sub); score(set) > score(best) {
				best = set
			}
		}
		flush()
		return best
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			set := required(sub)
			if len(set) == 0 {
				return nil
			}
			out = append(out, set...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return nil
}

// bounded wraps each top-level alternative of a words class in word
// boundaries, at the ends where it has a word character: "\.env" and
// "expected output:" match beside spaces, where \b cannot.
func bounded(alt string) string {
	parts := splitTop(alt)
	for i, p := range parts {
		if p == "" {
			continue
		}
		lead, trail := `\b`, `\b`
		if c := p[0]; !(isWord(c) || c == '(') {
			lead = ""
		}
		if c := p[len(p)-1]; !(isWord(c) || c == ')' || c == '?' || c == '*' || c == '+') {
			trail = ""
		}
		parts[i] = lead + "(?:" + p + ")" + trail
	}
	return "(?:" + strings.Join(parts, "|") + ")"
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
