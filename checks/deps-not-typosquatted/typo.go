package depsnottyposquatted

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Ecosystem is a package registry whose names are compared only with each
// other.
type Ecosystem string

const (
	NPM  Ecosystem = "npm"
	PyPI Ecosystem = "PyPI"
)

// Popular is a name with its downloads over a month.
type Popular struct {
	Name string
	Pop  int64
}

// Data is one ecosystem's popularity data.
type Data struct {
	Eco        Ecosystem
	Popular    []Popular // most popular first
	index      map[string]int64
	Neighbours map[string]bool
	byLen      map[int][]int // normalised length → indexes into Popular
	scopes     map[string]bool
	forms      []forms // per popular name
}

// forms are the shapes of a name that rule 4 compares, computed once.
type forms struct{ noSep, core, tokens string }

func formsOf(n string) forms {
	f := forms{noSep: stripSep(n), core: stripAffix(n)}
	if strings.Contains(n, "-") {
		f.tokens = sortedJoin(strings.Split(n, "-"))
	}
	return f
}

// NewData indexes popularity data.
func NewData(eco Ecosystem, popular []Popular, neighbours []string) *Data {
	d := &Data{Eco: eco, Popular: popular, index: make(map[string]int64, len(popular)),
		Neighbours: make(map[string]bool, len(neighbours)), byLen: map[int][]int{}, scopes: map[string]bool{}}
	for i, p := range popular {
		n := Normalize(eco, p.Name)
		d.Popular[i].Name = n
		d.index[n] = p.Pop
		d.byLen[len(n)] = append(d.byLen[len(n)], i)
		d.forms = append(d.forms, formsOf(n))
		if scope, _, ok := splitScope(n); ok {
			d.scopes[scope] = true
		}
	}
	for _, n := range neighbours {
		d.Neighbours[Normalize(eco, n)] = true
	}
	return d
}

// Normalize applies the ecosystem's name rules: npm lowercases, PyPI
// applies PEP 503.
func Normalize(eco Ecosystem, name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if eco != PyPI {
		return name
	}
	var b strings.Builder
	sep := false
	for _, r := range name {
		if r == '-' || r == '_' || r == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	return b.String()
}

// Match is a candidate that resembles a much more popular name.
type Match struct {
	Candidate, Target string
	Rule              string
	// TargetPop is the target's downloads a month; the candidate has
	// fewer than the neighbour threshold (it is on neither list).
	TargetPop int64
	// Warn marks rule 6's unknown scope over a popular bare name, which is
	// reported but does not fail.
	Warn bool
}

// Known reports whether name is itself popular (the popular list or the
// neighbours list): such a name is never flagged.
func (d *Data) Known(name string) bool {
	n := Normalize(d.Eco, name)
	_, ok := d.index[n]
	return ok || d.Neighbours[n]
}

// Check applies the rules of CHECKS §5 to one candidate name.
func (d *Data) Check(name string) (Match, bool) {
	n := Normalize(d.Eco, name)
	if n == "" || d.Known(n) {
		return Match{}, false
	}
	return d.Resembles(n)
}

// Resembles compares a normalised name with every popular name, as if the
// name had no popularity of its own: rule 2 then admits every target,
// because the generator guarantees that the least popular target is more
// than 100 times as popular as any name outside both lists. The generator
// calls it to find the neighbours.
func (d *Data) Resembles(n string) (Match, bool) {
	mk := func(t Popular, rule string) Match {
		return Match{Candidate: n, Target: t.Name, Rule: rule, TargetPop: t.Pop}
	}
	// Rule 6 first: a scope name is the clearest signal.
	if scope, bare, ok := splitScope(n); ok && d.Eco == NPM {
		for _, t := range d.Popular {
			ts, tb, tok := splitScope(t.Name)
			if tok && tb == bare && ts != scope && distance(ts, scope, 1) <= 1 {
				return mk(t, "scope within one edit of a popular scope"), true
			}
		}
		if !d.scopes[scope] {
			if p, ok := d.index[bare]; ok {
				m := mk(Popular{bare, p}, "unknown scope over a popular unscoped name")
				m.Warn = true
				return m, true
			}
		}
	}
	bareN := n
	if _, b, ok := splitScope(n); ok {
		bareN = b
	}
	// Popular is sorted most popular first, so the first match of each
	// pass is its best; the two passes keep the more popular target.
	var best Match
	found := false
	consider := func(t Popular, rule string) {
		if !found || t.Pop > best.TargetPop {
			best, found = mk(t, rule), true
		}
	}
	nf := formsOf(n)
	for l := len(n) - 2; l <= len(n)+2; l++ {
		for _, i := range d.byLen[l] {
			if t := d.Popular[i]; t.Name != n {
				if rule := compare(n, bareN, nf, t.Name, d.forms[i]); rule != "" {
					consider(t, rule)
					break
				}
			}
		}
	}
	// Separator and affix rules can change the length by more than two.
	for i, t := range d.Popular {
		if t.Name == n || absDiff(len(t.Name), len(n)) <= 2 {
			continue
		}
		if rule := structural(nf, d.forms[i]); rule != "" {
			consider(t, rule)
			break
		}
	}
	return best, found
}

// compare applies rules 3 to 5 to candidate n and target t of similar
// length.
func compare(n, bareN string, nf forms, t string, tf forms) string {
	if ts, tb, ok := splitScope(t); ok && !strings.HasPrefix(n, "@") && (n == ts+"-"+tb || n == ts+tb) {
		return "scoped name with the separator dropped"
	}
	if r := structural(nf, tf); r != "" {
		return r
	}
	if lookalike(n, t) {
		return "ASCII lookalike substitution"
	}
	max := 0
	switch {
	case len(bareN) >= 9:
		max = 2
	case len(bareN) >= 5:
		max = 1
	}
	if max > 0 && distance(n, t, max) <= max {
		return fmt.Sprintf("edit distance %d", distance(n, t, max))
	}
	return ""
}

var affixes = []string{"python-", "py-", "node-", "js-", "-python", "-py", "-js", ".js"}

// structural applies rule 4: separators removed or swapped, hyphen tokens
// permuted, a conventional affix added, dropped or swapped.
func structural(n, t forms) string {
	if n.noSep == t.noSep {
		return "separator confusion"
	}
	if n.tokens != "" && n.tokens == t.tokens {
		return "hyphen tokens permuted"
	}
	if n.core == t.core && len(n.core) >= 3 {
		return "affix added, dropped or swapped"
	}
	return ""
}

var sepReplacer = strings.NewReplacer("-", "", "_", "", ".", "")

func stripSep(s string) string { return sepReplacer.Replace(s) }

func stripAffix(s string) string {
	for _, a := range affixes {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, ".") {
			s = strings.TrimSuffix(s, a)
		} else {
			s = strings.TrimPrefix(s, a)
		}
	}
	return s
}

func sortedJoin(parts []string) string {
	p := append([]string(nil), parts...)
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j] < p[j-1]; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	return strings.Join(p, "-")
}

var lookalikes = [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}, {"1", "l"}, {"1", "i"}, {"l", "i"}, {"0", "o"}, {"5", "s"}}

// lookalike applies rule 5: one lookalike substitution turns n into t.
func lookalike(n, t string) bool {
	for _, p := range lookalikes {
		for _, ab := range [][2]string{{p[0], p[1]}, {p[1], p[0]}} {
			for i := 0; ; {
				j := strings.Index(n[i:], ab[0])
				if j < 0 {
					break
				}
				j += i
				if n[:j]+ab[1]+n[j+len(ab[0]):] == t {
					return true
				}
				i = j + 1
			}
		}
	}
	return false
}

func splitScope(n string) (scope, bare string, ok bool) {
	if !strings.HasPrefix(n, "@") {
		return "", n, false
	}
	s, b, ok := strings.Cut(n[1:], "/")
	return s, b, ok
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// qwerty rows: a substitution counts as a typo only between keys that
// touch, so that distinct words one letter apart (label, table) are not
// taken for slips of the finger.
var qwerty = []string{"1234567890-", "qwertyuiop", "asdfghjkl", "zxcvbnm"}

var adjacent = sync.OnceValue(func() map[[2]byte]bool {
	pos := map[byte][2]int{}
	for r, row := range qwerty {
		for c := 0; c < len(row); c++ {
			pos[row[c]] = [2]int{r, c}
		}
	}
	m := map[[2]byte]bool{}
	for a, pa := range pos {
		for b, pb := range pos {
			dr, dc := pa[0]-pb[0], pa[1]-pb[1]
			// Rows are staggered: a key touches the row below at its own
			// column and the one to its left.
			if a != b && (dr == 0 && (dc == 1 || dc == -1) || dr == 1 && (dc == 0 || dc == 1) || dr == -1 && (dc == 0 || dc == -1)) {
				m[[2]byte{a, b}] = true
			}
		}
	}
	return m
})

// distance is the Damerau-Levenshtein (optimal string alignment) distance
// of a and b, where a substitution costs 1 only between adjacent keys and
// 2 otherwise; it returns max+1 as soon as the result must exceed max.
func distance(a, b string, max int) int {
	if absDiff(len(a), len(b)) > max {
		return max + 1
	}
	adj := adjacent()
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 0
			if a[i-1] != b[j-1] {
				cost = 2
				if adj[[2]byte{a[i-1], b[j-1]}] {
					cost = 1
				}
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

//go:embed npm-popular.tsv
var npmPopular []byte

//go:embed npm-neighbours.txt
var npmNeighbours []byte

//go:embed pypi-popular.tsv
var pypiPopular []byte

//go:embed pypi-neighbours.txt
var pypiNeighbours []byte

// Load returns the committed data of an ecosystem, parsed on first use.
func Load(eco Ecosystem) *Data {
	if eco == PyPI {
		return pypiData()
	}
	return npmData()
}

var (
	npmData  = sync.OnceValue(func() *Data { return mustParse(NPM, npmPopular, npmNeighbours) })
	pypiData = sync.OnceValue(func() *Data { return mustParse(PyPI, pypiPopular, pypiNeighbours) })
)

func mustParse(eco Ecosystem, pop, nb []byte) *Data {
	p, n, err := ParseData(pop, nb)
	if err != nil {
		panic(fmt.Sprintf("%s popularity data: %v", eco, err)) // committed data; a test parses it
	}
	return NewData(eco, p, n)
}

// ParseData reads a popular list (name TAB popularity) and a neighbours
// list (one name a line); lines starting with # are comments.
func ParseData(popular, neighbours []byte) ([]Popular, []string, error) {
	var ps []Popular
	sc := bufio.NewScanner(bytes.NewReader(popular))
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if t == "" || t[0] == '#' {
			continue
		}
		name, v, ok := strings.Cut(t, "\t")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || name == "" {
			return nil, nil, fmt.Errorf("popular list line %d: want NAME<TAB>NUMBER", line)
		}
		ps = append(ps, Popular{name, n})
	}
	var ns []string
	for _, t := range strings.Split(string(neighbours), "\n") {
		if t = strings.TrimSpace(t); t != "" && t[0] != '#' {
			ns = append(ns, t)
		}
	}
	return ps, ns, nil
}
