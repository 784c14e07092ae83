package policy

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/metahub-ai/attest/resolve"
)

// ConfigName is the configuration file a run discovers.
const ConfigName = "attest.json"

// MaxConfigBytes bounds a configuration file.
const MaxConfigBytes = 1 << 20

// MinReasonLength is the shortest reason a waiver may give: it is
// published in the report, so "ok" or "n/a" will not do.
const MinReasonLength = 10

// ConfigSchema is the JSON Schema of attest.json.
//
//go:embed config.schema.json
var ConfigSchema []byte

// File is attest.json: the policy a run applies (docs/CONFIG.md).
type File struct {
	// Schema names the file's JSON Schema, for editors; it changes nothing.
	Schema string `json:"$schema,omitempty"`
	// Waivers lift the block of findings, in public.
	Waivers []Waiver `json:"waivers,omitempty"`
	// Disable lists checks not to run (their results are skip, reason
	// policy, and count against coverage).
	Disable []string `json:"disable,omitempty"`
	// Settings are per-check settings, recorded in the report.
	Settings map[string]any `json:"settings,omitempty"`
	// MinScore is the least overall score for exit 0, as --min-score.
	MinScore *float64 `json:"minScore,omitempty"`
	// Suite names the suite the configuration was written for:
	// "attest-default" or "attest-default@1.1.0".
	Suite string `json:"suite,omitempty"`
	// AllowHosts are hosts the artifact may reach from the behavioral
	// tier's sandbox, as --allow-host ("*.example.com" for subdomains).
	AllowHosts []string `json:"allowHosts,omitempty"`
	// Behavioral turns the behavioral tier on for runs under this file, as
	// --behavioral does (without overriding a static safety veto).
	Behavioral bool `json:"behavioral,omitempty"`
}

var configKeys = []string{"$schema", "waivers", "disable", "settings", "minScore", "suite", "allowHosts", "behavioral"}

var hostPattern = lazyRegexp(`^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$`)
var waiverKeys = []string{"check", "reason", "expires", "paths"}

var checkID = lazyRegexp(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var unknownField = lazyRegexp(`^json: unknown field "([^"]*)"$`)

// ParseConfig reads attest.json strictly: an unknown key or a value of the
// wrong type is an error that says what was meant, so a typo never
// loosens (or silently drops) a rule.
func ParseConfig(data []byte) (*File, error) {
	if len(data) > MaxConfigBytes {
		return nil, fmt.Errorf("over %d bytes", MaxConfigBytes)
	}
	// encoding/json matches keys regardless of case and takes the last of
	// repeated keys; the file's keys are checked exactly first.
	if err := exactKeys(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, explainJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return &f, nil
}

// exactKeys refuses a key that is not spelt exactly as documented (in
// the file or in a waiver) and a key given twice.
func exactKeys(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return explainJSON(err)
	}
	if err := keysOf(data, configKeys, ""); err != nil {
		return err
	}
	var ws []json.RawMessage
	if raw, ok := top["waivers"]; ok && json.Unmarshal(raw, &ws) == nil {
		for i, w := range ws {
			if err := keysOf(w, waiverKeys, fmt.Sprintf("waivers[%d]: ", i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func keysOf(obj []byte, allowed []string, where string) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil // not an object: the typed decode says so
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return explainJSON(err)
		}
		k, _ := t.(string)
		switch {
		case seen[k]:
			return fmt.Errorf("%skey %q appears twice", where, k)
		case !slicesContains(allowed, k):
			if s := Suggest(k, allowed); s != "" {
				return fmt.Errorf("%sunknown key %q; did you mean %q?", where, k, s)
			}
			return fmt.Errorf("%sunknown key %q; the keys are %s", where, k, strings.Join(allowed, ", "))
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return explainJSON(err)
		}
	}
	return nil
}

// explainJSON turns the decoder's errors into what to fix.
func explainJSON(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		want := te.Type.String()
		switch te.Type.Kind().String() {
		case "slice":
			want = "a list"
		case "map", "struct":
			want = "an object"
		case "float64", "int":
			want = "a number"
		case "string":
			want = "a string"
		case "ptr":
			want = "a number"
		}
		field := te.Field
		if field == "" {
			field = "the file"
		}
		return fmt.Errorf("%s: should be %s, not a JSON %s", field, want, te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("not JSON: %v (at byte %d)", se, se.Offset)
	}
	if m := unknownField().FindStringSubmatch(err.Error()); m != nil {
		if s := Suggest(m[1], append(append([]string{}, configKeys...), waiverKeys...)); s != "" {
			return fmt.Errorf("unknown key %q; did you mean %q?", m[1], s)
		}
		return fmt.Errorf("unknown key %q; the keys are %s, and in a waiver %s", m[1], strings.Join(configKeys, ", "), strings.Join(waiverKeys, ", "))
	}
	return err
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v && v != "" {
			return true
		}
	}
	return false
}

// check validates what the types cannot: waivers with a check, a real
// reason, a date that parses, patterns that compile; a score in range.
func (f *File) check() error {
	for i, w := range f.Waivers {
		where := fmt.Sprintf("waivers[%d]", i)
		if w.Check == "" {
			return fmt.Errorf("%s: a waiver names the check it waives (\"check\")", where)
		}
		if !checkID().MatchString(w.Check) {
			return fmt.Errorf("%s: %q is not a check id (lower-case words joined by hyphens; attest list shows them)", where, w.Check)
		}
		if n := len([]rune(strings.TrimSpace(w.Reason))); n < MinReasonLength {
			return fmt.Errorf("%s (%s): the reason is published in the report; give one of at least %d characters", where, w.Check, MinReasonLength)
		}
		if w.Expires != nil {
			if _, err := parseExpiry(*w.Expires); err != nil {
				return fmt.Errorf("%s (%s): expires %q is not a date (YYYY-MM-DD) or RFC 3339 time", where, w.Check, *w.Expires)
			}
		}
		for _, p := range w.Paths {
			if !doublestar.ValidatePattern(p) || p == "" || strings.HasPrefix(p, "/") {
				return fmt.Errorf("%s (%s): path pattern %q: a slash-separated glob relative to the artifact's root (e.g. \"scripts/*.py\" or \"vendor/**\")", where, w.Check, p)
			}
		}
	}
	for _, h := range f.AllowHosts {
		if !hostPattern().MatchString(h) || len(h) > 253 {
			return fmt.Errorf("allowHosts: %q is not a host name (a name like pypi.org, or *.example.com for its subdomains)", h)
		}
	}
	for _, d := range f.Disable {
		if !checkID().MatchString(d) {
			return fmt.Errorf("disable: %q is not a check id (lower-case words joined by hyphens; attest list shows them)", d)
		}
	}
	if f.MinScore != nil && (*f.MinScore < 0 || *f.MinScore > 100) {
		return fmt.Errorf("minScore %v is outside 0..100", *f.MinScore)
	}
	return nil
}

// CheckIDs reports waivers and disabled checks that name no check of the
// catalog, with a suggestion for each.
func (f *File) CheckIDs(known []string) error {
	var bad []string
	name := func(kind, id string) {
		if slicesContains(known, id) {
			return
		}
		msg := fmt.Sprintf("%s names %q, not a check", kind, id)
		if s := Suggest(id, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		bad = append(bad, msg)
	}
	for _, w := range f.Waivers {
		name("a waiver", w.Check)
	}
	for _, d := range f.Disable {
		name("disable", d)
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; ") + " (attest list shows the checks)")
	}
	return nil
}

// Config is the policy a run applies from this file; source names it.
func (f *File) Config(source string) Config {
	return Config{Source: source, MinScore: f.MinScore, Disabled: f.Disable, Waivers: f.Waivers, Settings: f.Settings, AllowHosts: f.AllowHosts, Behavioral: f.Behavioral}
}

// ReadConfig reads and checks a configuration file the user named.
func ReadConfig(p string) (*File, error) {
	fh, err := resolve.OpenFile(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	return parseConfigFile(p, data)
}

// ReadDiscovered reads a configuration file DiscoverConfig found, which
// may lie in the artifact itself: inside its directory, never through a
// link.
func ReadDiscovered(p string) (*File, error) {
	data, err := resolve.ReadBeneath(filepath.Dir(p), filepath.Base(p), MaxConfigBytes+1)
	if err != nil {
		return nil, err
	}
	return parseConfigFile(p, data)
}

func parseConfigFile(p string, data []byte) (*File, error) {
	f, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return f, nil
}

// DiscoverConfig finds attest.json in dir or the nearest directory above
// it; "" when there is none. Only a regular file counts, not a link: the
// working directory may be the artifact, whose links are never followed.
func DiscoverConfig(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(abs, ConfigName)
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// Suggest is the candidate closest to word when it is close enough to be
// a likely typo (an edit distance of at most a third of its length), or "".
func Suggest(word string, candidates []string) string {
	best, bestD := "", len(word)/3+1
	sorted := append([]string{}, candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if d := distance(strings.ToLower(word), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// lazyRegexp compiles a pattern on first use: every process links this
// package, few read a policy, and hostPattern's bounded repetitions alone
// cost a start 1 ms.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
