package depsnottyposquatted

import (
	_ "embed"
	"fmt"
	"slices"
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

// Data is one ecosystem's popularity data: the popular list in
// popularity order, the neighbours list and the key index, each a sorted
// text file read in place. Nothing is built at load time but line offsets,
// so a run pays for the names it looks up, not for the 5,000 it could.
type Data struct {
	Eco               Ecosystem
	popular, nb, keys string
	popLines, nbLines []int32 // line start offsets, comments skipped
	keyLines          []int32
}

// Key rules of the index: the shapes of a popular name that rules 1, 4
// and 6 compare.
const (
	keyName    = "n" // the name itself
	keySep     = "s" // separators removed
	keyCore    = "c" // conventional affixes removed
	keyTokens  = "t" // hyphen tokens sorted
	keyDropped = "d" // a scoped name with its separator dropped
	keyScope   = "p" // a scope in use
)

// keysOf lists the index keys of a normalised popular name.
func keysOf(name string) [][2]string {
	out := [][2]string{{name, keyName}}
	if ns := stripSep(name); ns != name {
		out = append(out, [2]string{ns, keySep}) // else the name key serves
	}
	if c := stripAffix(name); len(c) >= 3 && c != name {
		out = append(out, [2]string{c, keyCore})
	}
	if strings.Contains(name, "-") {
		out = append(out, [2]string{sortedTokens(name), keyTokens})
	}
	if scope, bare, ok := splitScope(name); ok {
		out = append(out, [2]string{scope + "-" + bare, keyDropped}, [2]string{scope + bare, keyDropped}, [2]string{scope, keyScope})
	}
	return out
}

// BuildKeys writes the key index of a popular list (normalised names, most
// popular first): one "key TAB rule TAB rank" line for the most popular
// name of each key and rule, sorted.
func BuildKeys(popular []Popular) string {
	seen := map[[2]string]bool{}
	var lines []string
	for i, p := range popular {
		for _, k := range keysOf(p.Name) {
			if !seen[k] {
				seen[k] = true
				lines = append(lines, k[0]+"\t"+k[1]+"\t"+strconv.Itoa(i))
			}
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// NewData reads the three files of an ecosystem.
func NewData(eco Ecosystem, popular, neighbours, keys string) *Data {
	return &Data{Eco: eco, popular: popular, nb: neighbours, keys: keys,
		popLines: lineStarts(popular), nbLines: lineStarts(neighbours), keyLines: lineStarts(keys)}
}

func lineStarts(s string) []int32 {
	out := make([]int32, 0, strings.Count(s, "\n")+1)
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			end = len(s) - off
		}
		if s[off] != '#' && end > 0 {
			out = append(out, int32(off))
		}
		off += end + 1
	}
	return out
}

func line(s string, off int32) string {
	t := s[off:]
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	return t
}

// Len is the number of popular names.
func (d *Data) Len() int { return len(d.popLines) }

// At is the popular name of a rank (0 is the most popular).
func (d *Data) At(rank int) Popular {
	name, v, _ := strings.Cut(line(d.popular, d.popLines[rank]), "\t")
	n, _ := strconv.ParseInt(v, 10, 64)
	return Popular{name, n}
}

// lookup finds the rank indexed under a key and rule, or -1.
func (d *Data) lookup(key, rule string) int {
	prefix := key + "\t" + rule + "\t"
	i, _ := slices.BinarySearchFunc(d.keyLines, prefix, func(off int32, p string) int {
		return strings.Compare(line(d.keys, off), p)
	})
	if i < len(d.keyLines) {
		if l := line(d.keys, d.keyLines[i]); strings.HasPrefix(l, prefix) {
			r, err := strconv.Atoi(l[len(prefix):])
			if err == nil && r < d.Len() {
				return r
			}
		}
	}
	return -1
}

func (d *Data) neighbour(n string) bool {
	_, ok := slices.BinarySearchFunc(d.nbLines, n, func(off int32, k string) int {
		return strings.Compare(line(d.nb, off), k)
	})
	return ok
}

// Normalize applies the ecosystem's name rules: npm lowercases, PyPI
// applies PEP 503.
func Normalize(eco Ecosystem, name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if eco != PyPI || !strings.ContainsAny(name, "_.") && !strings.Contains(name, "--") {
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
	// Warn marks rule 6's unknown scope over a popular unscoped name,
	// which is reported but does not fail.
	Warn bool
	// PopOf is the name TargetPop counts when it is not Target's (a
	// misspelt scope's most downloaded package).
	PopOf string
}

// Known reports whether name is itself popular (the popular list or the
// neighbours list): such a name is never flagged.
func (d *Data) Known(name string) bool {
	n := Normalize(d.Eco, name)
	return d.lookup(n, keyName) >= 0 || d.neighbour(n)
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
// calls it to find the neighbours. Of several matches the most popular
// target wins.
func (d *Data) Resembles(n string) (Match, bool) {
	best, rule := -1, ""
	consider := func(i int, r string) {
		if i >= 0 && (best < 0 || i < best) && d.At(i).Name != n {
			best, rule = i, r
		}
	}
	scope, bare, scopedN := splitScope(n)
	if scopedN && d.Eco == NPM {
		// Rule 6: a scope one edit from a popular scope, same bare name;
		// or any bare name under a scope nobody uses one edit from a
		// popular scope of seven characters or more (an organisation's
		// scope misspelt: @modelcontextprotocl/server-x).
		typo := -1
		for i := range d.Len() {
			t := d.At(i).Name
			ts, tb, ok := splitScope(t)
			if !ok || ts == scope || distance(ts, scope, 1) > 1 {
				continue
			}
			if tb == bare {
				consider(i, "scope within one edit of a popular scope")
				break
			}
			if typo < 0 && len(ts) >= 7 {
				typo = i
			}
		}
		if typo < 0 {
			// or one lookalike away (@modelcontextprotoco1)
			lookalikes(scope, func(v string) {
				if i := d.lookup(v, keyScope); typo < 0 && i >= 0 && len(v) >= 7 {
					typo = i
				}
			})
		}
		if best < 0 && typo >= 0 && d.lookup(scope, keyScope) < 0 && !d.neighbourScope(scope) {
			t := d.At(typo)
			ts, _, _ := splitScope(t.Name)
			return Match{Candidate: n, Target: "@" + ts + "/" + bare, Rule: "scope within one edit of a popular scope", TargetPop: t.Pop, PopOf: t.Name}, true
		}
		if best < 0 && d.lookup(scope, keyScope) < 0 {
			// Rule 6b: an unknown scope one slip from a popular scope: a
			// scope is an owner's namespace, so any name under its
			// lookalike imitates that owner (@modelcontextprotocl/x).
			if i := d.scopeSlip(scope); i >= 0 {
				t := d.At(i)
				return Match{Candidate: n, Target: t.Name, Rule: "scope one slip from the popular scope @" + scopeOf(t.Name), TargetPop: t.Pop}, true
			}
			if i := d.lookup(bare, keyName); i >= 0 {
				t := d.At(i)
				return Match{Candidate: n, Target: t.Name, Rule: "unknown scope over a popular unscoped name", TargetPop: t.Pop, Warn: true}, true
			}
		}
	}
	if !scopedN && d.Eco == NPM {
		consider(d.lookup(n, keyDropped), "scoped name with the separator dropped")
	}
	// Rule 4: separators, hyphen tokens, affixes.
	ns := stripSep(n)
	consider(d.lookup(ns, keySep), "separator confusion")
	if ns != n {
		consider(d.lookup(ns, keyName), "separator confusion")
	}
	if strings.Contains(n, "-") {
		consider(d.lookup(sortedTokens(n), keyTokens), "hyphen tokens permuted")
	}
	if c := stripAffix(n); len(c) >= 3 {
		consider(d.lookup(c, keyName), "affix added, dropped or swapped")
		consider(d.lookup(c, keyCore), "affix added, dropped or swapped")
	}
	// Rule 5: one lookalike substitution.
	lookalikes(n, func(v string) { consider(d.lookup(v, keyName), "ASCII lookalike substitution") })
	// Rule 3: typing slips, for names of five characters or more.
	maxDist := 0
	switch {
	case len(bare) >= 9:
		maxDist = 2
	case len(bare) >= 5:
		maxDist = 1
	}
	if maxDist > 0 {
		end := d.Len()
		if best >= 0 {
			end = best // only a more popular target could change the answer
		}
		for i := range end {
			l := line(d.popular, d.popLines[i])
			t := l[:strings.IndexByte(l, '\t')]
			if absDiff(len(t), len(n)) > maxDist || t == n {
				continue
			}
			if k := distance(n, t, maxDist); k <= maxDist {
				consider(i, fmt.Sprintf("edit distance %d", k))
				break
			}
		}
	}
	if best < 0 {
		return Match{}, false
	}
	t := d.At(best)
	return Match{Candidate: n, Target: t.Name, Rule: rule, TargetPop: t.Pop}, true
}

// MinScopeSlip is the shortest scope compared with popular scopes by
// typing slips alone: shorter scopes are too close to each other.
const MinScopeSlip = 6

// scopeSlip finds the most popular name whose scope is one slip (two for
// scopes of 12 characters or more) from an unknown scope, or -1.
func (d *Data) scopeSlip(scope string) int {
	if d.neighbourScope(scope) {
		return -1 // a scope in use by a name of the neighbours list
	}
	max := 0
	switch {
	case len(scope) >= 12:
		max = 2
	case len(scope) >= MinScopeSlip:
		max = 1
	default:
		return -1
	}
	for i := range d.Len() {
		ts, _, ok := splitScope(d.At(i).Name)
		if ok && ts != scope && distance(ts, scope, max) <= max {
			return i
		}
	}
	return -1
}

// neighbourScope reports whether a name of the neighbours list has the
// scope.
func (d *Data) neighbourScope(scope string) bool {
	prefix := "@" + scope + "/"
	i, _ := slices.BinarySearchFunc(d.nbLines, prefix, func(off int32, k string) int {
		return strings.Compare(line(d.nb, off), k)
	})
	return i < len(d.nbLines) && strings.HasPrefix(line(d.nb, d.nbLines[i]), prefix)
}

func scopeOf(n string) string {
	s, _, _ := splitScope(n)
	return s
}

var affixes = []string{"python-", "py-", "node-", "js-", "-python", "-py", "-js", ".js"}

func stripSep(s string) string {
	if !strings.ContainsAny(s, "-_.") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '-' && c != '_' && c != '.' {
			b = append(b, c)
		}
	}
	return string(b)
}

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

func sortedTokens(n string) string {
	p := strings.Split(n, "-")
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j] < p[j-1]; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	return strings.Join(p, "-")
}

var lookalikePairs = [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}, {"1", "l"}, {"1", "i"}, {"l", "i"}, {"0", "o"}, {"5", "s"}}

// lookalikes yields every name one lookalike substitution away from n
// (rule 5).
func lookalikes(n string, yield func(string)) {
	for _, p := range lookalikePairs {
		for _, ab := range [][2]string{{p[0], p[1]}, {p[1], p[0]}} {
			for i := 0; ; {
				j := strings.Index(n[i:], ab[0])
				if j < 0 {
					break
				}
				j += i
				yield(n[:j] + ab[1] + n[j+len(ab[0]):])
				i = j + 1
			}
		}
	}
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

var adjacent = sync.OnceValue(func() *[128][128]bool {
	pos := map[byte][2]int{}
	for r, row := range qwerty {
		for c := 0; c < len(row); c++ {
			pos[row[c]] = [2]int{r, c}
		}
	}
	var m [128][128]bool
	for a, pa := range pos {
		for b, pb := range pos {
			dr, dc := pa[0]-pb[0], pa[1]-pb[1]
			// Rows are staggered: a key touches the row below at its own
			// column and the one to its left.
			if a != b && (dr == 0 && (dc == 1 || dc == -1) || dr == 1 && (dc == 0 || dc == 1) || dr == -1 && (dc == 0 || dc == -1)) {
				m[a][b] = true
			}
		}
	}
	return &m
})

// distance is the Damerau-Levenshtein (optimal string alignment) distance
// of a and b, where a substitution costs 1 only between adjacent keys and
// 2 otherwise; it returns max+1 as soon as the result must exceed max.
func distance(a, b string, max int) int {
	if absDiff(len(a), len(b)) > max {
		return max + 1
	}
	adj := adjacent()
	var buf [3][72]int
	var prev2, prev, cur []int
	if len(b) < len(buf[0]) {
		prev2, prev, cur = buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	} else {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
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
				if x, y := a[i-1], b[j-1]; x < 128 && y < 128 && adj[x][y] {
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

//go:embed npm-keys.txt
var npmKeys string

//go:embed pypi-keys.txt
var pypiKeys string

// Load returns the committed data of an ecosystem, parsed on first use.
func Load(eco Ecosystem) *Data {
	if eco == PyPI {
		return pypiData()
	}
	return npmData()
}

var (
	npmData  = sync.OnceValue(func() *Data { return NewData(NPM, string(npmPopular), string(npmNeighbours), npmKeys) })
	pypiData = sync.OnceValue(func() *Data { return NewData(PyPI, string(pypiPopular), string(pypiNeighbours), pypiKeys) })
)

// ParseData reads a popular list (name TAB popularity) and a neighbours
// ParseData reads a popular list (name TAB popularity) and a neighbours
// list (one name a line); lines starting with # are comments.
func ParseData(popular, neighbours []byte) ([]Popular, []string, error) {
	text := string(popular)
	ps := make([]Popular, 0, strings.Count(text, "\n"))
	for line := 1; text != ""; line++ {
		t, rest, _ := strings.Cut(text, "\n")
		text = rest
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
