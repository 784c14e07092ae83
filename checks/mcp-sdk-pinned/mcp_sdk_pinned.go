package mcpsdkpinned

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	depspkg "github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is mcp-sdk-pinned.
var Check = &checks.Check{
	ID:          "mcp-sdk-pinned",
	Version:     "1.0.1",
	Title:       "The MCP SDK version is pinned",
	Axis:        checks.Safety,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	jsLocks = depspkg.Locks[depspkg.NPM]
	pyLocks = depspkg.Locks[depspkg.PyPI]
)

type dep struct {
	file, name, spec string
	pos              manifest.Pos
	locks            []string
	py               bool
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	m := s.Manifests
	var deps []dep
	if p := m.Package; p.Ok() {
		for _, d := range p.V.Dependencies {
			if d.Name == "@modelcontextprotocol/sdk" && d.Group != "devDependencies" {
				deps = append(deps, dep{p.Path, d.Name, d.Spec, d.Pos, jsLocks, false})
			}
		}
	}
	if p := m.Pyproject; p.Ok() {
		for _, d := range p.V.Dependencies {
			if n := strings.ToLower(d.Name); n == "mcp" || n == "fastmcp" {
				deps = append(deps, dep{p.Path, d.Name, d.Spec, d.Pos, pyLocks, true})
			}
		}
	}
	for _, r := range m.Requirements {
		if r.Ok() {
			for _, d := range r.V.Requirements {
				if n := strings.ToLower(d.Name); n == "mcp" || n == "fastmcp" {
					spec := d.Spec
					if d.URL != "" {
						spec = d.URL
					}
					deps = append(deps, dep{r.Path, d.Raw, spec, d.Pos, pyLocks, true})
				}
			}
		}
	}
	if c := m.Cargo; c.Ok() {
		for _, d := range c.V.Dependencies {
			if d.Name == "rmcp" {
				deps = append(deps, dep{c.Path, d.Name, d.Spec, d.Pos, []string{"Cargo.lock"}, false})
			}
		}
	}
	if len(deps) == 0 {
		if m.GoMod.Ok() {
			return checks.NotApplicable("a Go module: go.mod and go.sum pin every dependency"), nil
		}
		return checks.NotApplicable("no MCP SDK dependency"), nil
	}
	var warns []checks.Evidence
	for _, d := range deps {
		if bounded(d.spec, d.py) || locked(s.Inventory, d.locks) {
			continue
		}
		spec := d.spec
		if spec == "" {
			spec = "any version"
		}
		warns = append(warns, checks.At(d.file, d.pos.Line, d.pos.Col, fmt.Sprintf("%s %s is unbounded and no lockfile pins it", d.name, spec)))
	}
	if len(warns) > 0 {
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	}
	return checks.Passed(fmt.Sprintf("%s %q is bounded or locked", deps[0].name, deps[0].spec)), nil
}

func locked(inv *resolve.Inventory, names []string) bool {
	for _, n := range names {
		if _, ok := inv.File(n); ok {
			return true
		}
	}
	return false
}

// bounded reports whether a version spec has an upper bound.
func bounded(spec string, py bool) bool {
	s := strings.TrimSpace(spec)
	switch {
	case s == "", s == "*", s == "latest", s == "x", strings.Contains(s, "://"), strings.HasPrefix(s, "git"), strings.HasPrefix(s, "file:"), strings.HasPrefix(s, "link:"):
		return false
	}
	if py {
		if strings.Contains(s, "==") || strings.Contains(s, "~=") || strings.Contains(s, "<") {
			return true
		}
		return false // >=, > or a bare name
	}
	for _, part := range strings.Split(s, "||") {
		p := strings.TrimSpace(part)
		if p == "" || p == "*" || strings.HasPrefix(p, ">") && !strings.Contains(p, "<") {
			return false
		}
	}
	return true
}
