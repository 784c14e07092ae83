package vocab

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Labels is a set of labels, sorted and without repeats.
type Labels []string

// Has reports whether l holds label.
func (l Labels) Has(label string) bool { return slices.Contains(l, label) }

func (l Labels) add(label string) Labels {
	if l.Has(label) {
		return l
	}
	l = append(l, label)
	slices.Sort(l)
	return l
}

type globEntry struct {
	*Entry
	pattern string // lower-cased
	key     string // a literal every match contains ("" when none)
}

// literalKey is the longest run of a pattern with no glob syntax: every
// name the pattern matches contains it, so a cheap Contains skips the
// glob for most strings.
func literalKey(p string) string {
	best, cur := "", strings.Builder{}
	flush := func() {
		if cur.Len() > len(best) {
			best = cur.String()
		}
		cur.Reset()
	}
	depth := 0
	for _, r := range p {
		switch {
		case r == '{':
			depth++
			flush()
		case r == '}':
			depth--
			flush()
		case depth > 0, r == '*', r == '?', r == '[', r == ']', r == '\\', r == ',':
			flush()
		case r == '/':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return best
}

func globs(file string, fold func(string) string) []globEntry {
	var out []globEntry
	for _, e := range Entries(file) {
		p := fold(e.Pattern)
		out = append(out, globEntry{Entry: e, pattern: p, key: literalKey(p)})
	}
	return out
}

var pathTable = sync.OnceValue(func() []globEntry { return globs("paths", strings.ToLower) })

// NormPath puts a path as code spells it into the form path entries are
// written against: forward slashes, lower case, every spelling of the home
// directory as "~", Windows profile variables expanded, no "./" or "//".
func NormPath(p string) string {
	p = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/"))
	p = strings.Trim(p, `"'`)
	for _, r := range [][2]string{
		{"%appdata%", "~/appdata/roaming"}, {"$env:appdata", "~/appdata/roaming"},
		{"%localappdata%", "~/appdata/local"}, {"$env:localappdata", "~/appdata/local"},
		{"%userprofile%", "~"}, {"$env:userprofile", "~"}, {"${home}", "~"}, {"$home", "~"}, {"%home%", "~"},
		{"$env:home", "~"},
	} {
		if strings.HasPrefix(p, r[0]) {
			p = r[1] + p[len(r[0]):]
			break
		}
	}
	if len(p) > 2 && p[1] == ':' && p[2] == '/' {
		p = p[2:] // a drive letter
	}
	for _, pre := range []string{"/home/", "/users/"} {
		if strings.HasPrefix(p, pre) {
			rest := p[len(pre):]
			if i := strings.IndexByte(rest, '/'); i > 0 {
				p = "~" + rest[i:]
			} else if rest != "" {
				p = "~"
			}
			break
		}
	}
	if p == "/root" || strings.HasPrefix(p, "/root/") {
		p = "~" + p[len("/root"):]
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	p = strings.TrimPrefix(p, "./")
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// PathLabels says what a path is: every label whose entry matches it.
func PathLabels(p string) Labels {
	n := NormPath(p)
	if n == "" {
		return nil
	}
	var out Labels
	for _, e := range pathTable() {
		if out.Has(e.Label) || e.key != "" && !strings.Contains(n, e.key) {
			continue
		}
		if ok, _ := doublestar.Match(e.pattern, n); ok {
			out = out.add(e.Label)
		}
	}
	return out
}

// Decoy is a credential file the behavioral scan plants in the sandbox's
// home: its path under the home and its content, in which every %s stands
// for the run's canary token.
type Decoy struct{ Path, Content string }

// Decoys are the path entries that carry decoy= content.
func Decoys() []Decoy {
	var out []Decoy
	for _, e := range Entries("paths") {
		if c := e.Opt("decoy"); c != "" && strings.HasPrefix(e.Pattern, "~/") {
			out = append(out, Decoy{Path: strings.TrimPrefix(e.Pattern, "~/"), Content: strings.ReplaceAll(c, `\n`, "\n")})
		}
	}
	return out
}

var envTable = sync.OnceValue(func() []globEntry { return globs("env", strings.ToUpper) })

// EnvLabel classifies an environment variable's name: "secret-env" when it
// holds a secret, "" otherwise (not-secret entries win).
func EnvLabel(name string) string {
	n := strings.ToUpper(strings.TrimSpace(name))
	if n == "" {
		return ""
	}
	label := ""
	for _, e := range envTable() {
		if e.key != "" && !strings.Contains(n, e.key) {
			continue
		}
		if ok, _ := doublestar.Match(e.pattern, n); ok {
			if e.Label == "not-secret" {
				return ""
			}
			if label == "" {
				label = e.Label
			}
		}
	}
	return label
}

var providerTable = sync.OnceValue(func() []globEntry { return globs("providers", strings.ToUpper) })

// Provider is who issues a secret.
type Provider struct {
	Name string
	// Servers are the words that name the provider's own servers and
	// packages.
	Servers []string
	// Account marks a cloud account's credentials, which open everything
	// the account holds.
	Account bool
}

// SecretProvider names who issues the secret an environment variable
// holds ("aws", "github"); the zero Provider when its name says none.
func SecretProvider(name string) Provider {
	n := strings.ToUpper(strings.TrimSpace(name))
	for _, e := range providerTable() {
		if ok, _ := doublestar.Match(e.pattern, n); ok {
			return Provider{Name: e.Label, Servers: strings.Split(strings.ToLower(e.Opt("servers")), ","), Account: e.Has("account")}
		}
	}
	return Provider{}
}

// SecretEnv reports whether an environment variable's name holds a secret.
func SecretEnv(name string) bool { return EnvLabel(name) == "secret-env" }

type hostEntry struct {
	*Entry
	hosts  []string
	path   string
	scheme bool
	// withScheme: the host counts only in a URL that names a scheme
	// (a bare word is not a host)
	withScheme bool
}

var hostTable = sync.OnceValue(func() []hostEntry {
	var out []hostEntry
	for _, e := range Entries("hosts") {
		p := strings.ToLower(e.Pattern)
		var hs []string
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			hs = strings.Split(p[1:len(p)-1], ",")
		} else {
			hs = []string{p}
		}
		out = append(out, hostEntry{Entry: e, hosts: hs, path: e.Opt("path"), scheme: e.Has("scheme"), withScheme: e.Has("with-scheme")})
	}
	return out
})

// SplitURL returns the scheme, host (lower case, no port or brackets) and
// path of a URL or a bare host[/path]; ok is false when there is no host.
func SplitURL(s string) (scheme, host, p string, ok bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i > 0 {
		scheme = strings.ToLower(s[:i])
		if u, err := url.Parse(s); err == nil && u.Host != "" {
			// a fully qualified name's trailing dot names the same host
			h := strings.TrimSuffix(strings.ToLower(strings.Trim(u.Hostname(), "[]")), ".")
			return scheme, h, u.EscapedPath(), h != ""
		}
		s = s[i+3:]
	}
	host, p, _ = strings.Cut(s, "/")
	if p != "" || strings.Contains(s, "/") {
		p = "/" + p
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if strings.HasPrefix(host, "[") {
		if h, _, ok := strings.Cut(host[1:], "]"); ok {
			host = h
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 && strings.Count(host, ":") == 1 {
		host = host[:i]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return scheme, host, p, host != "" && !strings.ContainsAny(host, " \t\"'<>{}$`")
}

// ForgeRepo reads the repository a forge URL points into, as
// "github.com/owner/name" in lower case, with the repository's name: a
// page or release of it, its raw files or its archives, with or without
// a scheme ("git+https://github.com/owner/name.git").
func ForgeRepo(u string) (repo, name string, ok bool) {
	_, h, p, ok := SplitURL(u)
	if !ok {
		return "", "", false
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) < 2 || segs[0] == "" {
		return "", "", false
	}
	forge := h
	switch h {
	case "raw.githubusercontent.com", "codeload.github.com", "github.com", "www.github.com":
		forge = "github.com"
	case "gitlab.com", "codeberg.org", "bitbucket.org":
	default:
		return "", "", false
	}
	name = strings.ToLower(strings.TrimSuffix(strings.TrimRight(segs[1], "."), ".git"))
	if name == "" {
		return "", "", false
	}
	return forge + "/" + strings.ToLower(segs[0]) + "/" + name, name, true
}

// HostLabel classifies a URL or host: capture, paste, file-drop, tunnel,
// chat-webhook, metadata, dyndns, pool, installer or registry; "" when none
// applies. The first entry that matches names it.
func HostLabel(u string) string {
	if ls := hostLabels(u, true); len(ls) > 0 {
		return ls[0]
	}
	return ""
}

// HostLabels is every label whose entry matches a URL or host (an
// installer's host can be a registry too).
func HostLabels(u string) Labels {
	var out Labels
	for _, l := range hostLabels(u, false) {
		out = out.add(l)
	}
	return out
}

func hostLabels(u string, first bool) []string {
	var out []string
	scheme, host, p, ok := SplitURL(u)
	for _, e := range hostTable() {
		if first && len(out) > 0 {
			break
		}
		if e.scheme {
			if scheme == e.hosts[0] {
				out = append(out, e.Label)
			}
			continue
		}
		if !ok || e.withScheme && scheme == "" {
			continue
		}
		for _, h := range e.hosts {
			// an entry may name a path prefix of a shared host
			// (raw.githubusercontent.com/homebrew)
			hh, hp, _ := strings.Cut(h, "/")
			if hp != "" && !strings.HasPrefix(strings.ToLower(strings.TrimPrefix(p, "/")), hp) {
				continue
			}
			if host == hh || strings.HasSuffix(host, "."+hh) {
				if e.path == "" || strings.HasPrefix(strings.ToLower(p), e.path) {
					out = append(out, e.Label)
					break
				}
			}
		}
	}
	return out
}

// PeerLabel classifies the host of a connection, a name known to be a
// host (as a ledger records it): HostLabel's answer for it, a bare name
// included.
func PeerLabel(host string) string {
	host = strings.TrimSpace(host)
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]" // an IPv6 address, not host:port
	}
	return HostLabel("tcp://" + host)
}

type nameEntry struct {
	*Entry
	names []string
}

var nameTable = sync.OnceValue(func() []nameEntry {
	var out []nameEntry
	for _, e := range Entries("names") {
		out = append(out, nameEntry{Entry: e, names: expandAlternatives(strings.ToLower(e.Pattern))})
	}
	return out
})

// NameLabel classifies a program, process or service name
// ("security-tool"); "" when none applies.
func NameLabel(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".service"), ".exe")
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	for _, e := range nameTable() {
		for _, p := range e.names {
			if ok, _ := doublestar.Match(p, n); ok {
				return e.Label
			}
		}
	}
	return ""
}
