package resolve

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
)

// ErrUnsupportedTarget is returned for a target form this build cannot fetch.
var ErrUnsupportedTarget = errors.New("unsupported target")

// ErrBadTarget is returned for a target string that names nothing.
var ErrBadTarget = errors.New("bad target")

// Target types.
const (
	TypeDir      = "dir"
	TypeGit      = "git"
	TypeNPM      = "npm"
	TypePyPI     = "pypi"
	TypeRegistry = "registry"
	TypeSnapshot = "snapshot"
)

// Target is a parsed target string. Parsing does no I/O beyond asking
// whether a local directory of that name exists.
type Target struct {
	Raw  string
	Type string // TypeDir, TypeGit, TypeNPM, TypePyPI or TypeRegistry
	// Path is the local directory (dir) or the subdirectory inside the
	// repository (git, registry); "" for the root.
	Path string
	// URL is the git clone URL.
	URL string
	// Ref is the branch, tag or commit asked for; "" for the default
	// branch.
	Ref string
	// Name and Version name a package (npm, pypi) or a registry entry
	// (registry: Kind/Name@Version); Version "" means the latest.
	Name, Version string
	Kind          string // registry only
	// Vendor is the registry prefix as written: "registry" or "metahub".
	Vendor string
}

// Parse parses a target string; an existing local directory always wins,
// and a string that is neither one nor in an explicit remote form (gh:,
// a URL, npm:, pypi:, registry:, OWNER/REPO//DIR) is an error naming
// both readings.
func Parse(s string) (Target, error) {
	return ParseWith(s, func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.IsDir()
	})
}

var (
	ghOwnerRe   = lex.Lazy(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	ghRepoRe    = lex.Lazy(`^[A-Za-z0-9._-]{1,100}$`)
	npmNameRe   = lex.Lazy(`^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)
	pypiNameRe  = lex.Lazy(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`)
	versionRe   = lex.Lazy(`^[A-Za-z0-9][A-Za-z0-9.+_-]{0,127}$`)
	refRe       = lex.Lazy(`^[A-Za-z0-9._/+-]{1,255}$`)
	entryNameRe = lex.Lazy(`^[a-z0-9][a-z0-9._-]{0,127}$`)
)

// ParseWith parses a target string, asking isDir whether a local
// directory exists.
func ParseWith(s string, isDir func(string) bool) (Target, error) {
	t := Target{Raw: s}
	if strings.TrimSpace(s) == "" {
		return t, fmt.Errorf("empty target: give a directory, e.g. 'attest run .'")
	}
	if len(s) > 4096 || strings.ContainsAny(s, "\x00\n\r") {
		return t, fmt.Errorf("target %.60q: %w: too long or holds control characters", s, ErrBadTarget)
	}
	if p, ok := strings.CutPrefix(s, "file://"); ok {
		t.Type, t.Path = TypeDir, p
		return t, nil
	}
	if isDir(s) {
		t.Type, t.Path = TypeDir, s
		return t, nil
	}
	bad := func(format string, a ...any) (Target, error) {
		return Target{Raw: s}, fmt.Errorf("target %q: %w: "+format, append([]any{s, ErrBadTarget}, a...)...)
	}
	switch {
	case strings.HasPrefix(s, "npm:"):
		spec := s[4:]
		at := strings.LastIndex(spec, "@")
		if at > 0 {
			t.Name, t.Version = spec[:at], spec[at+1:]
		} else {
			t.Name = spec
		}
		if !npmNameRe.Re().MatchString(t.Name) || len(t.Name) > 214 {
			return bad("%q is not an npm package name", t.Name)
		}
		if at > 0 && !versionRe.Re().MatchString(t.Version) {
			return bad("%q is not a version or dist-tag", t.Version)
		}
		t.Type = TypeNPM
		return t, nil
	case strings.HasPrefix(s, "pypi:"):
		spec := s[5:]
		name, ver, found := strings.Cut(spec, "==")
		if !found {
			name, ver, found = strings.Cut(spec, "@")
		}
		if !pypiNameRe.Re().MatchString(name) {
			return bad("%q is not a PyPI project name", name)
		}
		if found && !versionRe.Re().MatchString(ver) {
			return bad("%q is not a version; write pypi:NAME==VERSION", ver)
		}
		t.Type, t.Name, t.Version = TypePyPI, name, ver
		return t, nil
	case strings.HasPrefix(s, "registry:") || strings.HasPrefix(s, "metahub:"):
		vendor, spec, _ := strings.Cut(s, ":")
		ref, ver, hasVer := strings.Cut(spec, "@")
		kind, name, ok := strings.Cut(ref, "/")
		if _, err := ParseKind(kind); !ok || err != nil {
			return bad("want %s:KIND/NAME[@VERSION] with KIND one of skill, mcp, agent, plugin", vendor)
		}
		if !entryNameRe.Re().MatchString(name) {
			return bad("%q is not a registry entry name", name)
		}
		if hasVer && !versionRe.Re().MatchString(ver) {
			return bad("%q is not a version", ver)
		}
		t.Type, t.Vendor, t.Kind, t.Name, t.Version = TypeRegistry, vendor, kind, name, ver
		return t, nil
	case strings.HasPrefix(s, "gh:") || strings.HasPrefix(s, "github:"):
		_, rest, _ := strings.Cut(s, ":")
		return gitHubShort(t, rest, bad)
	case strings.Contains(s, "://"):
		return gitURL(t, bad)
	case strings.HasPrefix(s, "git@"):
		return bad("ssh targets are not fetched; use the https:// URL of the repository")
	}
	// owner/repo forms, unless it looks like a path.
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.Contains(s, `\`) {
		t.Type, t.Path = TypeDir, s
		return t, nil
	}
	base, _, _ := strings.Cut(s, "//")
	base, _, _ = strings.Cut(base, "#")
	segs := strings.Split(base, "/")
	if at := strings.Index(segs[len(segs)-1], "@"); at >= 0 {
		segs[len(segs)-1] = segs[len(segs)-1][:at]
	}
	switch {
	case len(segs) == 2 && strings.Contains(s, "//") && ghOwnerRe.Re().MatchString(segs[0]) && ghRepoRe.Re().MatchString(segs[1]):
		return gitHubShort(t, s, bad)
	case len(segs) == 2 && ghOwnerRe.Re().MatchString(segs[0]) && ghRepoRe.Re().MatchString(segs[1]):
		// OWNER/REPO alone reads as a path as well: never guess, and
		// never reach the network for a mistyped directory.
		return bad("no local directory %q; if you meant a GitHub repository, write gh:%s (or %s//DIR for a directory in it); if you meant a local directory, check the path (./%s)", s, s, segs[0]+"/"+segs[1], s)
	case len(segs) > 2 && !strings.Contains(s, "//") && ghOwnerRe.Re().MatchString(segs[0]) && ghRepoRe.Re().MatchString(segs[1]):
		return bad("no local directory %q; if you meant a GitHub repository and a directory in it, write %s//%s (or gh:%s//%s); if you meant a local directory, check the path (./%s)",
			s, segs[0]+"/"+segs[1], strings.Join(segs[2:], "/"), segs[0]+"/"+segs[1], strings.Join(segs[2:], "/"), s)
	}
	t.Type, t.Path = TypeDir, s
	return t, nil
}

// gitHubShort parses owner/repo[//sub][#ref|@ref].
func gitHubShort(t Target, s string, bad func(string, ...any) (Target, error)) (Target, error) {
	rest, ref, hasRef := splitRef(s)
	repo, sub, _ := strings.Cut(rest, "//")
	owner, name, ok := strings.Cut(repo, "/")
	name = strings.TrimSuffix(name, ".git")
	if !ok || !ghOwnerRe.Re().MatchString(owner) || !ghRepoRe.Re().MatchString(name) || strings.Contains(name, "/") {
		return bad("want OWNER/REPO[//DIR][#REF]")
	}
	t.Type, t.URL = TypeGit, "https://github.com/"+owner+"/"+name+".git"
	return withSubRef(t, sub, ref, hasRef, bad)
}

// splitRef cuts a trailing #ref, or an @ref after the last slash.
func splitRef(s string) (rest, ref string, ok bool) {
	if i := strings.LastIndex(s, "#"); i >= 0 {
		return s[:i], s[i+1:], true
	}
	if i := strings.LastIndex(s, "@"); i > strings.LastIndex(s, "/") && i > 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func withSubRef(t Target, sub, ref string, hasRef bool, bad func(string, ...any) (Target, error)) (Target, error) {
	if hasRef {
		if !refRe.Re().MatchString(ref) || strings.Contains(ref, "..") || strings.HasPrefix(ref, "-") || strings.HasSuffix(ref, "/") {
			return bad("%q is not a branch, tag or commit", ref)
		}
		t.Ref = ref
	}
	if sub != "" {
		clean := path.Clean(strings.Trim(sub, "/"))
		if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || strings.HasPrefix(sub, "/") && strings.Trim(sub, "/") == "" {
			return bad("the directory %q leaves the repository", sub)
		}
		t.Path = clean
	}
	return t, nil
}

// gitURL parses an https:// (or loopback http://) git URL, including
// GitHub's /tree/REF/DIR and /blob/REF/FILE page URLs.
func gitURL(t Target, bad func(string, ...any) (Target, error)) (Target, error) {
	s := t.Raw
	rest, ref, hasRef := s, "", false
	if i := strings.LastIndex(s, "#"); i >= 0 {
		rest, ref, hasRef = s[:i], s[i+1:], true
	}
	scheme, after, _ := strings.Cut(rest, "://")
	hostPath, sub, _ := strings.Cut(after, "//")
	u, err := url.Parse(scheme + "://" + hostPath)
	if err != nil || u.Host == "" {
		return bad("not a URL")
	}
	if scheme != "https" && scheme != "http" {
		return bad("only https:// git URLs are fetched (ssh, git and file transports are refused)")
	}
	if u.User != nil {
		return bad("credentials in the URL are not accepted; attest fetches public repositories anonymously")
	}
	switch scheme {
	case "https":
	case "http":
		if !loopback(u.Hostname()) {
			return bad("plain http is accepted only for loopback hosts (local mirrors); use https")
		}
	default:
		return bad("only https:// git URLs are fetched (ssh, git and file transports are refused)")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return bad("a git URL takes no query; a ref goes after #")
	}
	p := strings.TrimSuffix(u.Path, "/")
	if strings.EqualFold(u.Hostname(), "github.com") {
		segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
		if len(segs) < 2 {
			return bad("want https://github.com/OWNER/REPO")
		}
		owner, name := segs[0], strings.TrimSuffix(segs[1], ".git")
		if len(segs) >= 4 && (segs[2] == "tree" || segs[2] == "blob") {
			if hasRef || sub != "" {
				return bad("a /%s/ URL names its ref and path already", segs[2])
			}
			ref, hasRef = segs[3], true
			dir := segs[4:]
			if segs[2] == "blob" && len(dir) > 0 {
				dir = dir[:len(dir)-1] // a file: evaluate the directory that holds it
			}
			sub = strings.Join(dir, "/")
		} else if len(segs) != 2 {
			return bad("want https://github.com/OWNER/REPO, or a /tree/REF/DIR or /blob/REF/FILE page URL")
		}
		t.URL = "https://github.com/" + owner + "/" + name + ".git"
		if !ghOwnerRe.Re().MatchString(owner) || !ghRepoRe.Re().MatchString(name) {
			return bad("%s/%s is not a GitHub repository name", owner, name)
		}
	} else {
		u.Path = p
		t.URL = u.String()
	}
	t.Type = TypeGit
	return withSubRef(t, sub, ref, hasRef, bad)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
