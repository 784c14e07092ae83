// Package secrets finds secret-shaped values with the rule set gitleaks
// maintains, kept here as versioned data (rules.json, written by
// tools/secretrules). Rules are chosen by a keyword prefilter and compiled
// on first use; each match is judged by its own value (entropy, the rule's
// allowlists, placeholders), never by the text around it, and no value
// ever leaves this package except as a byte span.
package secrets

import (
	"bytes"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/lex"
)

// MaxMatchesPerRule bounds the matches of one rule in one window (a
// line); every line holding a keyword is read, so decoys before a secret
// never push it past a limit.
const MaxMatchesPerRule = 200

type allowlist struct {
	Condition   string
	Regexes     []string
	RegexTarget string
	StopWords   []string
	once        sync.Once
	res         []*regexp.Regexp
	stopOnce    sync.Once
	stops       *lex.Words
}

// stopWords indexes the stop words: generic-api-key has 1,446, and testing
// each with strings.Contains cost 30 µs for every value it judged.
func (a *allowlist) stopWords() *lex.Words {
	a.stopOnce.Do(func() { a.stops = lex.NewWords(a.StopWords) })
	return a.stops
}

// compiled compiles the allowlist's patterns on first use: most runs judge
// no match at all.
func (a *allowlist) compiled() []*regexp.Regexp {
	a.once.Do(func() {
		for _, x := range a.Regexes {
			a.res = append(a.res, regexp.MustCompile(x))
		}
	})
	return a.res
}

type rule struct {
	ID          string
	Regex       string
	SecretGroup int
	Entropy     float64
	Keywords    []string
	Path        string
	Allowlists  []allowlist
	once        sync.Once
	re          *regexp.Regexp
	kindOnce    sync.Once
	multiline   bool
	pathOnce    sync.Once
	pathRe      *regexp.Regexp
}

type ruleSet struct {
	Allowlist *allowlist
	Rules     []*rule
}

type keyword struct {
	text  string
	rules []int
}

var rules = sync.OnceValue(func() *ruleSet { return &ruleSet{Allowlist: &globalAllowlist, Rules: ruleData} })

// bigrams finds a bigram's keywords in O(1): the rank of its bit in
// keywordBits (a prefix count per word plus a popcount) indexes the range
// of keywordIndex that begins with it. Common bigrams of code ("ke", "to",
// "ap") pass the bitmap on most lines, so this is the scan's inner loop.
type bigrams struct {
	prefix [len(keywordBits)]uint16
	start  []uint16 // by rank; start[rank+1] ends the range
}

// bigramIndex is built once, from the generated tables.
var bigramIndex = sync.OnceValue(func() *bigrams {
	x := &bigrams{}
	n := 0
	for w, word := range keywordBits {
		x.prefix[w] = uint16(n)
		n += bits.OnesCount64(word)
	}
	x.start = make([]uint16, n+1)
	rank := -1
	var last uint16
	for i, k := range keywordIndex {
		bg := bigram(k.text[0], k.text[1])
		if rank < 0 || bg != last {
			rank++
			x.start[rank] = uint16(i)
			last = bg
		}
	}
	x.start[n] = uint16(len(keywordIndex))
	return x
})

func bigram(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

// keywordsAt lists the keywords whose first two bytes are bg, a bigram
// whose bit is set in keywordBits.
func keywordsAt(bg uint16) []keyword {
	x := bigramIndex()
	w := bg / 64
	rank := int(x.prefix[w]) + bits.OnesCount64(keywordBits[w]&(1<<(bg%64)-1))
	return keywordIndex[x.start[rank]:x.start[rank+1]]
}

// lowerTab lowers A-Z only, keeping every byte where it is: positions found
// through it index content too (bytes.ToLower changes the length of
// invalid UTF-8 and of some letters).
var lowerTab = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// hasLowerPrefix reports whether b, lowered, begins with the lower-case k.
func hasLowerPrefix(b []byte, k string) bool {
	if len(b) < len(k) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if lowerTab[b[i]] != k[i] {
			return false
		}
	}
	return true
}

func (r *rule) compile() {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Regex) })
}

// isMultiline says whether the rule's matches may span lines, from its
// pattern's text, without compiling it.
func (r *rule) isMultiline() bool {
	r.kindOnce.Do(func() {
		r.multiline = strings.Contains(r.Regex, `\n`) || strings.Contains(r.Regex, `[\s\S]`) || strings.Contains(r.Regex, "(?s") ||
			strings.Contains(r.Regex, "-----BEGIN") || strings.Contains(r.Regex, `\s*`) && strings.Contains(r.ID, "private")
	})
	return r.multiline
}

// requiredLiterals lists, for a rule, byte strings one of which every
// match contains, outside any case-insensitive group: a window holding
// none cannot match, and is not run. The curl rules look across up to six
// lines from every "curl" for a header or user flag; most mentions of
// curl have neither. TestRequiredLiterals holds each list to its rule.
var requiredLiterals = map[string][]string{
	"curl-auth-header": {"-H", "--header"},
	"curl-auth-user":   {"-u"}, // --user holds -u
}

func mayMatch(r *rule, window []byte) bool {
	lits, ok := requiredLiterals[r.ID]
	if !ok {
		return true
	}
	for _, l := range lits {
		if bytes.Contains(window, []byte(l)) {
			return true
		}
	}
	return false
}

// appliesTo reports whether the rule reads the file at path. Its path
// pattern is compiled apart from its content pattern, which a file of
// another type never needs (kubernetes-secret-yaml's costs 1.3 ms).
func (r *rule) appliesTo(path string) bool {
	if r.Path == "" {
		return true
	}
	r.pathOnce.Do(func() { r.pathRe = regexp.MustCompile(r.Path) })
	return r.pathRe.MatchString(path)
}

// Match is a secret-shaped value found in content.
type Match struct {
	Rule       string
	Start, End int // the secret's byte span
	// Test marks a credential of a test or sandbox environment (Stripe
	// sk_test_), which the checks warn on rather than fail.
	Test bool
}

// Scan finds secrets in content. path is the file's path, for rules that
// only apply to some files. Lines holding JSON/JS escapes (\uXXXX, \xXX,
// \/) or URL-encoding (%XX) are also scanned decoded, so that escaping a
// character of a key does not hide it; such a match spans the escaped text
// in content.
func Scan(path string, content []byte) []Match {
	out := scanRaw(path, content)
	for start := 0; start < len(content); {
		end := len(content)
		if nl := bytes.IndexByte(content[start:], '\n'); nl >= 0 {
			end = start + nl + 1
		}
		line := content[start:end]
		if dec, orig, ok := unescape(line); ok {
			for _, m := range scanRaw(path, dec) {
				m.Start, m.End = start+orig[m.Start], start+orig[m.End]
				out = append(out, m)
			}
		}
		start = end
	}
	return dedupe(out)
}

// maxDecodedLine bounds the line length decoded for the second pass.
const maxDecodedLine = 64 << 10

// unescape decodes a line's \uXXXX, \xXX, \/ and %XX sequences. orig maps
// each decoded byte (and the end) to its offset in line. ok is false when
// the line holds none.
func unescape(line []byte) (dec []byte, orig []int, ok bool) {
	if len(line) > maxDecodedLine || bytes.IndexByte(line, '%') < 0 && !bytes.Contains(line, []byte(`\u`)) && !bytes.Contains(line, []byte(`\x`)) && !bytes.Contains(line, []byte(`\/`)) {
		return nil, nil, false
	}
	dec = make([]byte, 0, len(line))
	orig = make([]int, 0, len(line)+1)
	emit := func(at int, b ...byte) {
		for _, c := range b {
			dec = append(dec, c)
			orig = append(orig, at)
		}
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '%' && i+2 < len(line) && isHex(line[i+1]) && isHex(line[i+2]):
			emit(i, unhex(line[i+1])<<4|unhex(line[i+2]))
			i, ok = i+3, true
		case c == '\\' && i+5 < len(line) && line[i+1] == 'u' && isHex(line[i+2]) && isHex(line[i+3]) && isHex(line[i+4]) && isHex(line[i+5]):
			r := rune(unhex(line[i+2]))<<12 | rune(unhex(line[i+3]))<<8 | rune(unhex(line[i+4]))<<4 | rune(unhex(line[i+5]))
			emit(i, utf8.AppendRune(nil, r)...)
			i, ok = i+6, true
		case c == '\\' && i+3 < len(line) && line[i+1] == 'x' && isHex(line[i+2]) && isHex(line[i+3]):
			emit(i, unhex(line[i+2])<<4|unhex(line[i+3]))
			i, ok = i+4, true
		case c == '\\' && i+1 < len(line) && line[i+1] == '/':
			emit(i, '/')
			i, ok = i+2, true
		default:
			emit(i, c)
			i++
		}
	}
	orig = append(orig, len(line))
	return dec, orig, ok
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func scanRaw(path string, content []byte) []Match {
	rs := rules()
	active := map[int][]int{} // rule → keyword positions
	for i := 0; i+1 < len(content); i++ {
		b := bigram(lowerTab[content[i]], lowerTab[content[i+1]])
		if keywordBits[b/64]&(1<<(b%64)) == 0 {
			continue
		}
		for _, k := range keywordsAt(b) {
			if hasLowerPrefix(content[i:], k.text) {
				for _, id := range k.rules {
					active[id] = append(active[id], i)
				}
			}
		}
	}
	var out []Match
	lines := newLineIndex(content)
	for id := 0; id < len(rs.Rules); id++ {
		hits := active[id]
		if len(hits) == 0 {
			continue
		}
		r := rs.Rules[id]
		if !r.appliesTo(path) {
			continue
		}
		// Run the rule only on the lines that hold one of its keywords
		// (multi-line rules from that line on): Go's regexp is linear but
		// slow on whole files, and a match holds its keyword. A long line
		// is run in windows around its keywords; hits come in order, and
		// one inside a window already run is skipped, so the work is
		// linear in the content however many keywords a line holds.
		seen := map[int]bool{}
		covered := -1 // hits before this offset were inside a window run
		for _, pos := range hits {
			if pos < covered || !plausible(r.ID, content, pos) {
				continue
			}
			start, end := lines.bounds(pos)
			next := end
			if !r.isMultiline() {
				if end-start > maxWindow {
					// windows tile a long line, overlapping by a quarter:
					// a keyword near a window's end may start a match
					// that runs past it, and the next window sees it
					lineEnd := end
					start = max(start, pos-maxWindow/2, covered-maxWindow/4)
					end = min(lineEnd, start+maxWindow)
					next = end - maxWindow/4
					if end == lineEnd {
						next = end
					}
				}
			} else {
				if pos-start > maxWindow/2 {
					start = pos - maxWindow/2 // deep in a long line
				}
				end = min(len(content), start+maxMultiline)
				next = min(lines.endOf(start), end-maxWindow/4)
			}
			covered = next
			window := content[start:end]
			if !mayMatch(r, window) {
				continue
			}
			r.compile()
			windowBytes.Add(int64(len(window)))
			for _, m := range r.re.FindAllSubmatchIndex(window, MaxMatchesPerRule) {
				for i := range m {
					if m[i] >= 0 {
						m[i] += start
					}
				}
				if seen[m[0]] {
					continue
				}
				seen[m[0]] = true
				if mt, ok := judge(rs, r, content, lines, m); ok {
					out = append(out, mt)
				}
			}
		}
	}
	return dedupe(out)
}

// windowBytes counts the bytes the rules' patterns were run over, for the
// test that holds the scan linear in its input.
var windowBytes atomic.Int64

// lineIndex holds the offsets of a content's line ends, so a line's bounds
// cost a binary search, not a scan of the line.
type lineIndex []int

func newLineIndex(content []byte) lineIndex {
	var nl lineIndex
	for i := 0; ; {
		j := bytes.IndexByte(content[i:], '\n')
		if j < 0 {
			break
		}
		nl = append(nl, i+j)
		i += j + 1
	}
	return append(nl, len(content))
}

// bounds is the line holding off: its first byte and one past its newline
// (or the content's end).
func (x lineIndex) bounds(off int) (int, int) {
	i, _ := slices.BinarySearch(x, off)
	start := 0
	if i > 0 {
		start = x[i-1] + 1
	}
	end := x[min(i, len(x)-1)]
	if i < len(x)-1 {
		end++ // with its newline
	}
	return start, end
}

// endOf is one past the end of the line starting at start.
func (x lineIndex) endOf(start int) int {
	_, end := x.bounds(start)
	return end
}

// Window sizes for running a rule around its keyword.
const (
	maxWindow    = 8 << 10
	maxMultiline = 32 << 10
)

// plausible is a cheap test, derived from two very common rules' shapes,
// that lets most keyword hits skip compiling and running them: a generic
// secret needs an assignment operator soon after its keyword, and a JWT
// needs "ey" followed by a long base64url run and a dot.
func plausible(id string, content []byte, pos int) bool {
	switch id {
	case "generic-api-key":
		end := min(len(content), pos+40)
		return bytes.ContainsAny(content[pos:end], "=:>,|")
	case "twilio-api-key":
		// SK and 32 hex digits, case as written
		if pos+34 > len(content) || content[pos] != 'S' || content[pos+1] != 'K' {
			return false
		}
		for _, c := range content[pos+2 : pos+34] {
			if !isHex(c) {
				return false
			}
		}
		return true
	case "vault-service-token", "azure-ad-client-secret", "huggingface-access-token", "sendgrid-api-token":
		// Two- or three-byte keywords that begin a long token.
		n := 0
		for i := pos + 3; i < len(content) && n < 16; i++ {
			c := content[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '~' || c == '+' || c == '/' || c == '=') {
				break
			}
			n++
		}
		return n >= 16
	case "jwt":
		n := 0
		for i := pos; i < len(content) && i < pos+4096; i++ {
			c := content[i]
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
				n++
			case c == '.' && n >= 19:
				return true
			default:
				return false
			}
		}
		return false
	}
	return true
}

// judge decides one regex match.
func judge(rs *ruleSet, r *rule, content []byte, lines lineIndex, m []int) (Match, bool) {
	s, e := span(r, m)
	if s < 0 || e <= s {
		return Match{}, false
	}
	value := string(content[s:e])
	if r.Entropy > 0 && Entropy(value) < r.Entropy {
		return Match{}, false
	}
	line := lineAround(content, lines, s, e)
	if allowed(rs.Allowlist, value, string(content[m[0]:m[1]]), line) || ruleAllowed(r, value, string(content[m[0]:m[1]]), line) {
		return Match{}, false
	}
	test := strings.HasPrefix(value, "sk_test_") || strings.HasPrefix(value, "rk_test_")
	if !test && (Placeholder(value) || madeUp(value)) || test && documentedExample(value) {
		return Match{}, false
	}
	if r.ID == "generic-api-key" && notGeneric(string(content[m[0]:s]), value) {
		return Match{}, false
	}
	return Match{Rule: r.ID, Start: s, End: e, Test: test}, true
}

// maxJudgedLine bounds the line an allowlist reads around a match: on a
// minified file the whole line would make every match cost the file.
const maxJudgedLine = 4 << 10

// lineAround is the line holding [s, e), without its newline, clipped to
// maxJudgedLine around the match.
func lineAround(content []byte, lines lineIndex, s, e int) string {
	ls, le := lines.bounds(s)
	if le > ls && content[le-1] == '\n' {
		le--
	}
	ls, le = max(ls, s-maxJudgedLine/2), min(le, max(e, s)+maxJudgedLine/2)
	return string(content[ls:le])
}

func span(r *rule, m []int) (int, int) {
	if g := r.SecretGroup; g > 0 && 2*g+1 < len(m) && m[2*g] >= 0 {
		return m[2*g], m[2*g+1]
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return m[0], m[1]
}

func allowed(a *allowlist, secret, match, line string) bool {
	for _, re := range a.compiled() {
		if re.MatchString(secret) {
			return true
		}
	}
	return false
}

func ruleAllowed(r *rule, secret, match, line string) bool {
	ls := strings.ToLower(secret)
	for i := range r.Allowlists {
		a := &r.Allowlists[i]
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		reHit := false
		for _, re := range a.compiled() {
			if re.MatchString(target) {
				reHit = true
				break
			}
		}
		stopHit := len(a.StopWords) > 0 && a.stopWords().Any(ls)
		if strings.EqualFold(a.Condition, "AND") {
			if (len(a.Regexes) == 0 || reHit) && (len(a.StopWords) == 0 || stopHit) {
				return true
			}
		} else if reHit || stopHit {
			return true
		}
	}
	return false
}

// dedupe keeps one match per span, preferring a specific rule over the
// generic one.
func dedupe(ms []Match) []Match {
	var out []Match
	for _, m := range ms {
		dup := false
		for i, o := range out {
			if m.Start < o.End && o.Start < m.End {
				dup = true
				if strings.HasPrefix(o.Rule, "generic") && !strings.HasPrefix(m.Rule, "generic") {
					out[i] = m
				}
				break
			}
		}
		if !dup {
			out = append(out, m)
		}
	}
	return out
}

// Entropy is the Shannon entropy of s in bits per character.
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

var placeholderWords = map[string]bool{"example": true, "sample": true, "placeholder": true, "your": true, "changeme": true,
	"dummy": true, "fake": true, "redacted": true, "test": true, "xxx": true, "xxxx": true}

// Documented example keys of the vendors.
var exampleKeys = []string{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAI44QH8DHBEXAMPLE",
	"je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "pk_test_TYooMQauvdEDq54NiTphI7jx",
	// jwt.io's example token is signed with the documented secret
	// "your-256-bit-secret"; copies edit its claims and keep the signature
	"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"}

// Placeholder judges a value by itself alone: repeated or sequential
// characters, template syntax, x/* runs, or a whole word that says it is
// not a real value.
func Placeholder(v string) bool {
	t := strings.Trim(v, "\"'` ")
	if t == "" {
		return true
	}
	if documentedExample(t) {
		return true
	}
	if strings.Count(t, t[:1]) == len(t) || strings.Contains(strings.ToLower(t), "xxxx") || strings.Contains(t, "***") ||
		strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") || strings.Contains(t, "${") || strings.Contains(t, "{{") || strings.Contains(t, "%s") {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if placeholderWords[w] {
			return true
		}
	}
	return sequential(t)
}

func documentedExample(v string) bool {
	for _, k := range exampleKeys {
		if strings.Contains(v, k) {
			return true
		}
	}
	return false
}

// sequential: "1234567890abcdef" or "abcdefgh" runs.
func sequential(s string) bool {
	if len(s) < 8 {
		return false
	}
	run := 1
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1]+1 {
			run++
			if run >= len(s)*3/4 {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}
