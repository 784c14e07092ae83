package secrets

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode"
)

// madeUp reports a value that says by itself that it is not a live
// credential: elided ("eyJhbGci...", "ao_live_..."), counted out
// ("A1B2C3D4…", "ABCDEF_ghijkl-0123"), spelled from the words that name a
// credential ("sk-testsecret1234567890", "secret-api-key-12345"), or the
// base64 of such a text or of a name ("bmV4dFBhZ2VUb2tlbg==" is
// "nextPageToken"). A real key is random; none of these is.
func madeUp(v string) bool {
	t := strings.Trim(v, "\"'` ")
	if elided(t) || counted(t) || selfNamed(t) {
		return true
	}
	if jwtBody, ok := jwtParts(t); ok && (counted(jwtBody) || selfNamed(jwtBody)) {
		return true
	}
	if d, ok := decodedText(t); ok {
		if _, pass, found := strings.Cut(d, ":"); found && pass != "" {
			d = pass // user:password: the password is the secret
		}
		return counted(d) || selfNamed(d) || nameLike(d)
	}
	return false
}

// elided: a value cut short with an ellipsis, as documentation shows a
// token's start. What is left must be too short to be the key, or a JWT's
// header alone.
func elided(t string) bool {
	body, ok := strings.CutSuffix(t, "…")
	if !ok {
		if !strings.HasSuffix(t, "..") {
			return false
		}
		body = strings.TrimRight(t, ".")
	}
	if len(body) < 24 {
		return true
	}
	return strings.HasPrefix(body, "eyJ") && !strings.Contains(body, ".")
}

// jwtParts returns a JWT's payload and signature (its header is a fixed
// JSON object, never secret).
func jwtParts(t string) (string, bool) {
	if !strings.HasPrefix(t, "eyJ") {
		return "", false
	}
	_, rest, ok := strings.Cut(t, ".")
	return rest, ok && rest != ""
}

// counted: most characters continue a count from the one before or the
// one two before ("abcdef", "123456", "A1B2C3", with 0 after 9), however
// they are separated.
func counted(t string) bool {
	var rs []rune
	for _, r := range strings.ToLower(t) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			rs = append(rs, r)
		}
	}
	if len(rs) < 8 {
		return false
	}
	next := func(a, b rune) bool {
		return b == a+1 || a == '9' && b == '0'
	}
	n := 0
	for i := 1; i < len(rs); i++ {
		if next(rs[i-1], rs[i]) || i >= 2 && next(rs[i-2], rs[i]) {
			n++
		}
	}
	return n*10 >= (len(rs)-1)*7
}

// credentialWords name what a value is instead of being one.
var credentialWords = regexp.MustCompile(`secret|password|passwd|token|api|key|test|example|sample|dummy|fake|demo|placeholder|changeme|private|your|my|value|here|string|access|auth|pass|live|prod|dev`)

// countRun is a run of four or more characters that count up.
func stripCounts(s string) string {
	rs := []rune(s)
	keep := make([]bool, len(rs))
	for i := range keep {
		keep[i] = true
	}
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && (rs[j+1] == rs[j]+1 || rs[j] == '9' && rs[j+1] == '0') {
			j++
		}
		if j-i+1 >= 4 {
			for k := i; k <= j; k++ {
				keep[k] = false
			}
		}
		i = j + 1
	}
	var b strings.Builder
	for i, r := range rs {
		if keep[i] {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// selfNamed: once the words that name a credential and counted runs are
// taken out, at most four letters or digits are left.
func selfNamed(t string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(t) {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte(' ')
		}
	}
	if len(strings.ReplaceAll(b.String(), " ", "")) < 8 {
		return false
	}
	rest := 0
	for _, w := range strings.Fields(b.String()) {
		rest += len(stripCounts(credentialWords.ReplaceAllString(w, "")))
	}
	return rest <= 4
}

var nameRe = regexp.MustCompile(`^[A-Za-z]+(?:[-_ ][A-Za-z]+)*$`)

// nameLike: an identifier made of words: "nextPageToken", "prev-token".
func nameLike(d string) bool {
	if len(d) > 40 || !nameRe.MatchString(d) {
		return false
	}
	if strings.ContainsAny(d, "-_ ") {
		return true
	}
	// camelCase: lower case letters, then humps
	humps := 0
	for i := 1; i < len(d); i++ {
		if unicode.IsUpper(rune(d[i])) && unicode.IsLower(rune(d[i-1])) {
			humps++
		}
	}
	return humps >= 1 && unicode.IsLower(rune(d[0]))
}

var b64Re = regexp.MustCompile(`^[A-Za-z0-9+/]{8,}={0,2}$`)

// decodedText decodes a base64 value into printable ASCII text.
func decodedText(t string) (string, bool) {
	if !b64Re.MatchString(t) || len(t)%4 != 0 || len(t) > 256 {
		return "", false
	}
	b, err := base64.StdEncoding.DecodeString(t)
	if err != nil || len(b) < 4 {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return "", false
		}
	}
	return string(b), true
}

// genericKeyword finds the words the generic rule keys on.
var genericKeyword = regexp.MustCompile(`(?i)access|auth|api|credential|creds|key|passw(?:or)?d|secret|token`)

var assignedRe = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=([^=].*)$`)

var addressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// notGeneric reports a generic-rule match that is no secret by what it is
// assigned to: the value is itself an assignment to a name no secret word
// is in ("Tokenization: `max_length=512`"), the name's secret word is only
// part of another ("tokenizer_model_name"), or the value is an account
// address, which is public ("0x" and 40 hex digits, or under a name that
// says address).
func notGeneric(key, value string) bool {
	t := strings.Trim(value, "\"'` ")
	if m := assignedRe.FindStringSubmatch(t); m != nil && !genericKeyword.MatchString(m[1]) {
		return true
	}
	if addressRe.MatchString(t) {
		return true
	}
	k := strings.ToLower(strings.Trim(key, "\"'`:=>,|?\t "))
	if strings.HasSuffix(k, "address") || strings.HasSuffix(k, "addr") {
		return true
	}
	hits := genericKeyword.FindAllStringIndex(k, -1)
	if len(hits) == 0 {
		return false
	}
	for _, h := range hits {
		if !strings.HasPrefix(k[h[0]:], "tokeniz") && !strings.HasPrefix(k[h[0]:], "tokenis") {
			return false
		}
	}
	return true
}
