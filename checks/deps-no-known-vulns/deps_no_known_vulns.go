package depsnoknownvulns

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvscan"
	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvwire"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is deps-no-known-vulns.
var Check = &checks.Check{
	ID:          "deps-no-known-vulns",
	Version:     "1.1.1",
	Title:       "No dependency has a known vulnerability",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Sampled,
	Kinds:       resolve.Kinds,
	Needs:       []checks.Capability{checks.Net},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Environment variables read by the check.
const (
	// EnvOSVURL replaces OSV's API base URL (an HTTPS mirror).
	EnvOSVURL = "ATTEST_OSV_URL"
)

// lockNames are the files osvscan's extractors read.
var lockNames = map[string]bool{"package-lock.json": true, "npm-shrinkwrap.json": true, "pnpm-lock.yaml": true,
	"yarn.lock": true, "bun.lock": true, "poetry.lock": true, "uv.lock": true, "Pipfile.lock": true, "pdm.lock": true,
	"go.mod": true, "Cargo.lock": true}

type (
	file     = osvwire.File
	request  = osvwire.Request
	pkg      = osvwire.Package
	response = osvwire.Response
)

func run(ctx context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	req := request{BaseURL: os.Getenv(EnvOSVURL)}
	for i := range s.Inventory.Files {
		f := &s.Inventory.Files[i]
		base := path.Base(f.Path)
		if !lockNames[base] && !(strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt")) || underVendor(f.Path) {
			continue
		}
		if f.Scanned {
			req.Files = append(req.Files, file{Path: f.Path, Content: f.Content})
		}
	}
	declared := 0
	ecos := map[string]bool{}
	for _, d := range deps.Declared(s) {
		if d.From == deps.FromManifest && d.Group != "replace" {
			declared++
			ecos[d.Ecosystem] = true
		}
	}
	// A workspace member's versions are resolved in the root's lockfile.
	var notes []string
	if w := s.Workspace; w != nil {
		for _, name := range w.Lockfiles {
			eco := deps.LockEcosystem(name)
			if !ecos[eco] || hasLock(req.Files, eco) {
				continue
			}
			if b, err := w.ReadLockfile(name); err == nil {
				req.Files = append(req.Files, file{Path: path.Join(w.Root, name), Content: b})
				notes = append(notes, fmt.Sprintf("versions from the workspace root's %s, which covers every member", path.Join(w.Root, name)))
			} else {
				notes = append(notes, fmt.Sprintf("the workspace root's %s could not be read: %v", name, err))
			}
		}
	}
	if len(req.Files) == 0 && declared == 0 {
		return checks.NotApplicable("no dependencies declared"), nil
	}
	// Without a lockfile, exact pins are versions too; ranges are not.
	unresolved := 0
	for _, d := range deps.Declared(s) {
		if d.From != deps.FromManifest || d.Group == "replace" || d.Ecosystem == deps.Go || hasLock(req.Files, d.Ecosystem) {
			continue
		}
		if v, ok := exactPin(d.Ecosystem, d.Spec); ok {
			req.Packages = append(req.Packages, pkg{Ecosystem: d.Ecosystem, Name: d.Name, Version: v, File: d.File, Line: d.Line,
				Dev: d.Group == "devDependencies" || d.Group == "dev-dependencies" || d.Group == "Pipfile dev-packages"})
		} else {
			unresolved++
		}
	}
	if len(req.Files) == 0 && len(req.Packages) == 0 {
		// Nothing to look up: say so rather than pass.
		return checks.Warning(0.75, fmt.Sprintf("%s declared but no lockfile resolves their versions, so none could be looked up", checks.Plural(declared, "dependency")),
			checks.Metric("unresolved", float64(declared), "")), nil
	}
	if dl, ok := ctx.Deadline(); ok {
		req.Timeout = time.Until(dl) - time.Second
	}
	resp, err := osvscan.Scan(ctx, req)
	if err != nil {
		return checks.Result{}, fmt.Errorf("looking up advisories: %w", err)
	}
	if len(resp.Packages) == 0 {
		// Nothing was looked up, so nothing passes: a pass rests on the
		// requests it records, and a verifier refuses one without them.
		missed := len(resp.Unresolved) + unresolved
		if missed == 0 && len(resp.Notes) == 0 {
			return checks.NotApplicable("the lockfiles resolve no package: nothing to look up"), nil
		}
		why := append(notes, resp.Notes...)
		if missed > 0 {
			why = append(why, fmt.Sprintf("%s without a resolved version", checks.Plural(missed, "dependency")))
		}
		return checks.Warning(0.75, "no package version could be resolved, so none was looked up: "+strings.Join(why, "; "),
			checks.Metric("unresolved", float64(missed), "")), nil
	}
	resp.Notes = append(notes, resp.Notes...)
	if unresolved > 0 {
		resp.Notes = append(resp.Notes, fmt.Sprintf("%s declared with a range and no lockfile: not looked up", checks.Plural(unresolved, "dependency")))
		resp.Unresolved = append(resp.Unresolved, make([]pkg, unresolved)...)
	}
	return judge(resp), nil
}

var (
	semverRe = lex.Lazy(`^v?\d+\.\d+\.\d+(?:[-+][\w.-]+)?$`)
	pep440Re = lex.Lazy(`^\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev)\d+)*$`)
)

// exactPin reads a version requirement that names one version.
func exactPin(eco, spec string) (string, bool) {
	s := strings.TrimSpace(spec)
	switch eco {
	case deps.NPM:
		return strings.TrimPrefix(s, "v"), semverRe.Re().MatchString(s)
	case deps.PyPI:
		v, ok := strings.CutPrefix(s, "==")
		v = strings.TrimSpace(v)
		return v, ok && !strings.ContainsAny(v, ",*;") && pep440Re.Re().MatchString(v)
	case deps.Crates:
		v, ok := strings.CutPrefix(s, "=")
		v = strings.TrimSpace(v)
		return v, ok && semverRe.Re().MatchString(v)
	}
	return "", false
}

func hasLock(files []file, eco string) bool {
	for _, f := range files {
		if deps.LockEcosystem(path.Base(f.Path)) == eco || eco == deps.PyPI && strings.HasPrefix(path.Base(f.Path), "requirements") {
			return true
		}
	}
	return false
}

func underVendor(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if seg == "node_modules" || seg == "vendor" || seg == ".venv" {
			return true
		}
	}
	return false
}

// judge turns advisories into the verdict of CHECKS §3.5: malware and a
// critical advisory on a runtime dependency fail; high warns at 0.25;
// moderate, low, unrated or dev-only warn at 0.75.
func judge(r *response) checks.Result {
	var fails, warns []checks.Evidence
	score := 1.0
	for _, v := range r.Vulns {
		if v.Package < 0 || v.Package >= len(r.Packages) {
			continue
		}
		p := r.Packages[v.Package]
		e := checks.At(p.File, p.Line, 0, describe(p, v))
		switch {
		case v.Malware:
			fails = append(fails, e)
		case v.Severity == "CRITICAL" && !p.Dev:
			fails = append(fails, e)
		case v.Severity == "HIGH" && !p.Dev:
			warns = append(warns, e)
			score = min(score, 0.25)
		default:
			warns = append(warns, e)
			score = min(score, 0.75)
		}
	}
	ev := append(fails, warns...)
	var detail strings.Builder
	for _, x := range r.Exchanges {
		msg := fmt.Sprintf("%s %d, %d bytes", x.Method, x.Status, x.Bytes)
		if x.Error != "" {
			msg += ": " + x.Error
		}
		ev = append(ev, checks.Evidence{Type: checks.EvidenceURL, URL: x.URL, SHA256: x.SHA256, Message: msg})
		fmt.Fprintf(&detail, "%s %s -> %d, %d bytes, sha256 %s\n", x.Method, x.URL, x.Status, x.Bytes, x.SHA256)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&detail, "note: %s\n", n)
	}
	if r.Truncated != "" {
		fmt.Fprintf(&detail, "limit: %s\n", r.Truncated)
	}
	ev = append(ev, checks.Metric("packages", float64(len(r.Packages)), ""), checks.Metric("unresolved", float64(len(r.Unresolved)), ""))
	var res checks.Result
	switch {
	case len(fails) > 0:
		res = checks.Failed(fails[0].Where(), ev...)
	case len(warns) > 0:
		res = checks.Warning(score, warns[0].Where(), ev...)
	default:
		res = checks.Passed(fmt.Sprintf("%s resolved, no known advisory in OSV", checks.Plural(len(r.Packages), "package")), ev...)
	}
	res.Detail = strings.TrimSpace(detail.String())
	return res
}

func describe(p pkg, v osvwire.Vuln) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s: %s", p.Name, p.Version, v.ID, v.Severity)
	if v.Malware {
		b.WriteString(" (malicious package)")
	}
	if v.Vector != "" {
		fmt.Fprintf(&b, " %.1f (%s)", v.Score, v.Vector)
	}
	if p.Dev {
		b.WriteString(", dev dependency")
	}
	if v.Summary != "" {
		fmt.Fprintf(&b, ": %s", v.Summary)
	}
	if len(v.Fixed) > 0 && !v.Malware {
		fmt.Fprintf(&b, "; fixed in %s", strings.Join(v.Fixed, ", "))
	}
	return b.String()
}
