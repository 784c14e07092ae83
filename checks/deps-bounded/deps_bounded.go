package depsbounded

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"

	"deps.dev/util/semver"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is deps-bounded.
var Check = &checks.Check{
	ID:          "deps-bounded",
	Version:     "1.1.1",
	Title:       "Dependencies come from the registry with bounded versions",
	Axis:        checks.Safety,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

type finding struct {
	ev   checks.Evidence
	fail bool
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var out []finding
	n := 0
	add := func(d deps.Dep, fail bool, format string, args ...any) {
		out = append(out, finding{checks.At(d.File, d.Line, d.Col, fmt.Sprintf(format, args...)), fail})
	}
	for _, d := range deps.Declared(s) {
		if d.From == deps.FromInstruction {
			continue
		}
		n++
		switch d.Ecosystem {
		case deps.NPM:
			npm(s, d, add)
		case deps.PyPI:
			python(s, d, add)
		case deps.Crates:
			cargo(s, d, add)
		case deps.Go:
			if d.Group == "replace" {
				goReplace(s, d, add)
			}
		}
	}
	for _, r := range s.Manifests.Requirements {
		if !r.Ok() {
			continue
		}
		for _, o := range r.V.Options {
			n++
			if host, bad := foreignIndex(o.Value); bad {
				out = append(out, finding{checks.At(r.Path, o.Pos.Line, o.Pos.Col, fmt.Sprintf("%s points pip at %s, not PyPI", firstWord(o.Value), host)), true})
			}
		}
	}
	ln, lockFindings := lockfiles(s)
	n += ln
	out = append(out, lockFindings...)
	if n == 0 {
		return checks.NotApplicable("no declared dependencies"), nil
	}
	var fails, warns []checks.Evidence
	for _, f := range out {
		if f.fail {
			fails = append(fails, f.ev)
		} else {
			warns = append(warns, f.ev)
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), warns...), nil
	}
	return checks.Passed(fmt.Sprintf("%s from the registry, bounded or locked", checks.Plural(n, "dependency"))), nil
}

type adder func(d deps.Dep, fail bool, format string, args ...any)

var gitHubShorthandRe = lex.Lazy(`^[\w.-]+/[\w.-]+(#.*)?$`)

func npm(s *resolve.Subject, d deps.Dep, add adder) {
	spec := strings.TrimSpace(d.Spec)
	switch {
	case strings.HasPrefix(spec, "workspace:"), strings.HasPrefix(spec, "link:") && inside(spec[5:]):
		return
	case strings.HasPrefix(spec, "npm:"):
		if _, v := deps.SplitSpec(deps.NPM, spec[4:]); v == "" {
			add(d, false, "%s aliases %s without a version", d.Name, spec)
		}
		return
	case strings.HasPrefix(spec, "file:"):
		if !inside(spec[5:]) {
			add(d, true, "%s comes from %s, outside the artifact", d.Name, spec)
		}
		return
	case strings.HasPrefix(spec, "git") || strings.HasPrefix(spec, "github:") || strings.HasPrefix(spec, "gitlab:") || strings.HasPrefix(spec, "bitbucket:") || gitHubShorthandRe.Re().MatchString(spec):
		if c := commitOf(spec); c != "" {
			add(d, false, "%s is a git dependency pinned to commit %s, not a registry version", d.Name, c)
		} else {
			add(d, true, "%s comes from git (%s) without a full commit", d.Name, spec)
		}
		return
	case strings.Contains(spec, "://"):
		add(d, true, "%s comes from a URL (%s), not the registry", d.Name, spec)
		return
	}
	if d.From == deps.FromLauncher {
		if spec == "" || spec == "latest" {
			add(d, false, "%s runs %s without a version: every start may run a different release", d.Group, d.Name)
		}
		return
	}
	if open(spec, semver.NPM) && !deps.Locked(s, deps.NPM) {
		add(d, false, "%s %q has no upper bound and no lockfile pins it", d.Name, orAny(spec))
	}
}

func python(s *resolve.Subject, d deps.Dep, add adder) {
	spec := strings.TrimSpace(d.Spec)
	if d.Name == "" && spec != "" || strings.Contains(spec, "://") || strings.HasPrefix(spec, "git+") {
		name := d.Name
		if name == "" {
			name = "a requirement"
		}
		if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "file:") {
			p := strings.TrimPrefix(strings.TrimPrefix(spec, "file:"), "//")
			if inside(p) {
				return
			}
			add(d, true, "%s comes from %s, outside the artifact", name, spec)
			return
		}
		if c := commitOf(spec); c != "" {
			add(d, false, "%s is a git dependency pinned to commit %s, not a PyPI version", name, c)
			return
		}
		add(d, true, "%s comes from %s, not PyPI", name, spec)
		return
	}
	if d.From == deps.FromLauncher {
		if spec == "" {
			add(d, false, "%s runs %s without a version: every start may run a different release", d.Group, d.Name)
		}
		return
	}
	if open(spec, semver.PyPI) && !deps.Locked(s, deps.PyPI) {
		add(d, false, "%s %q has no upper bound and no lockfile pins it", d.Name, orAny(spec))
	}
}

func cargo(s *resolve.Subject, d deps.Dep, add adder) {
	t := d.Table
	if t != nil {
		if g, ok := t["git"].(string); ok {
			rev, _ := t["rev"].(string)
			switch {
			case fullCommit(rev):
				add(d, false, "%s is a git dependency pinned to commit %s, not a crates.io version", d.Name, rev)
			default:
				add(d, true, "%s comes from git (%s) without a full commit rev", d.Name, g)
			}
			return
		}
		if p, ok := t["path"].(string); ok {
			if !inside(p) {
				add(d, true, "%s comes from path %s, outside the artifact", d.Name, p)
			}
			return
		}
		if reg, ok := t["registry"].(string); ok {
			add(d, false, "%s comes from the registry %q, not crates.io", d.Name, reg)
			return
		}
		if w, _ := t["workspace"].(bool); w {
			return
		}
	}
	if open(d.Spec, semver.Cargo) && !deps.Locked(s, deps.Crates) {
		add(d, false, "%s %q has no upper bound and no Cargo.lock pins it", d.Name, orAny(d.Spec))
	}
}

func goReplace(_ *resolve.Subject, d deps.Dep, add adder) {
	target := d.Spec
	if strings.HasPrefix(target, ".") || strings.HasPrefix(target, "/") {
		if !inside(target) {
			add(d, true, "%s is replaced by %s, outside the artifact", d.Name, target)
		}
		return
	}
	add(d, false, "%s is replaced by %s", d.Name, target)
}

// inside reports whether a relative path stays inside the artifact root.
func inside(p string) bool {
	p = strings.TrimPrefix(p, "//")
	if p == "" || path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return false
	}
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}

var commitRe = lex.Lazy(`[#@]([0-9a-f]{40})\b`)

func commitOf(spec string) string {
	if m := commitRe.Re().FindStringSubmatch(spec); m != nil {
		return m[1][:12]
	}
	return ""
}

func fullCommit(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func orAny(s string) string {
	if strings.TrimSpace(s) == "" {
		return "any version"
	}
	return s
}

// beyondAnyRelease is a version no real package reaches: a range that
// admits it has no upper bound.
const beyondAnyRelease = "2147483648.0.0"

// open reports whether a version requirement lacks an upper bound. The
// range is read by deps.dev's semver library in its ecosystem's own
// grammar (npm, PyPI, Cargo): one that admits any future major version is
// open, and so is anything that is not a range at all (a dist-tag such as
// "beta" or "canary" moves with every publish).
func open(spec string, sys semver.System) bool {
	s := strings.TrimSpace(spec)
	switch s {
	case "", "*", "latest", "x", "X", "next":
		return true
	}
	c, err := sys.ParseConstraint(s)
	if err != nil {
		return true
	}
	return c.Match(beyondAnyRelease)
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	w, _, _ = strings.Cut(w, "=")
	return w
}

var pypiHosts = map[string]bool{"pypi.org": true, "pypi.python.org": true, "files.pythonhosted.org": true}

// foreignIndex reads a pip option line that names an index or trusted host.
func foreignIndex(line string) (string, bool) {
	opt := firstWord(line)
	switch opt {
	case "-i", "--index-url", "--extra-index-url", "--trusted-host", "-f", "--find-links":
	default:
		return "", false
	}
	val := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), opt))
	val = strings.TrimSpace(strings.TrimPrefix(val, "="))
	host := val
	if u, err := url.Parse(val); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	return host, !pypiHosts[strings.ToLower(host)]
}
