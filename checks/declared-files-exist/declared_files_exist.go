package declaredfilesexist

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/nodebuild"
	"github.com/metahub-ai/attest/resolve"
)

// Check is declared-files-exist.
var Check = &checks.Check{
	ID:          "declared-files-exist",
	Version:     "1.0.0",
	Title:       "Declared files exist",
	Axis:        checks.Integrity,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Glob compiles an npm 'files' glob (*, ?, ** and [...]) to a regexp
// matching a path or anything below it.
func Glob(g string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '*' && i+1 < len(g) && g[i+1] == '*':
			b.WriteString(".*")
			i++
			if i+1 < len(g) && g[i+1] == '/' {
				i++
				b.WriteString("/?")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(g[i : i+j+1])
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("(/.*)?$")
	return regexp.Compile(b.String())
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	pm := in.Subject.Manifests.Package
	if !pm.Ok() || pm.V.Files == nil {
		return checks.NotApplicable(`no package.json "files"`), nil
	}
	inv := in.Subject.Inventory
	outs := nodebuild.Outputs(inv, pm.V)
	var warns []checks.Evidence
	n := 0
	for _, e := range pm.V.Files {
		v := strings.TrimPrefix(strings.TrimSpace(e.Value), "./")
		if v == "" || strings.HasPrefix(v, "!") {
			continue
		}
		n++
		v = strings.TrimSuffix(v, "/")
		if strings.ContainsAny(v, "*?[") {
			re, err := Glob(v)
			if err != nil {
				warns = append(warns, checks.At(pm.Path, e.Pos.Line, e.Pos.Col, fmt.Sprintf("%q is not a valid glob", e.Value)))
				continue
			}
			if matchesAny(inv, re) {
				continue
			}
			prefix := strings.Split(v, "*")[0]
			if _, ok := nodebuild.Produces(inv, outs, path.Clean(prefix+"x")); ok && prefix != "" {
				continue
			}
			warns = append(warns, checks.At(pm.Path, e.Pos.Line, e.Pos.Col, fmt.Sprintf("glob %q matches nothing", e.Value)))
			continue
		}
		if inv.Exists(path.Clean(v)) {
			continue
		}
		if _, ok := nodebuild.Produces(inv, outs, v); ok {
			continue
		}
		warns = append(warns, checks.At(pm.Path, e.Pos.Line, e.Pos.Col, fmt.Sprintf("%q does not exist", e.Value)))
	}
	if len(warns) > 0 {
		return checks.Warning(0.5, fmt.Sprintf(`%s of package.json "files" missing: %s`, checks.Plural(len(warns), "entry"), warns[0].Message), warns...), nil
	}
	return checks.Passed(fmt.Sprintf(`%s of "files" present`, checks.Plural(n, "entry"))), nil
}

func matchesAny(inv *resolve.Inventory, re *regexp.Regexp) bool {
	for _, f := range inv.Files {
		if re.MatchString(f.Path) {
			return true
		}
	}
	return false
}
