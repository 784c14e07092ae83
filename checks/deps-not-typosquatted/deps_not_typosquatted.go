package depsnottyposquatted

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/resolve"
)

// Check is deps-not-typosquatted.
var Check = &checks.Check{
	ID:          "deps-not-typosquatted",
	Version:     "1.3.0",
	Title:       "Dependency names are not typosquats",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails, warns []checks.Evidence
	n := 0
	seen := map[string]bool{}
	for _, d := range deps.Declared(in.Subject) {
		var eco Ecosystem
		switch d.Ecosystem {
		case deps.NPM:
			eco = NPM
		case deps.PyPI:
			eco = PyPI
		default:
			continue
		}
		n++
		m, ok := Load(eco).Check(d.Name)
		if !ok {
			continue
		}
		k := d.Where() + d.Name
		if seen[k] {
			continue
		}
		seen[k] = true
		popOf := m.Target
		if m.PopOf != "" {
			popOf = m.PopOf
		}
		msg := fmt.Sprintf("%s resembles %s (%s; %s: %s downloads a month, %s: %s)",
			d.Name, m.Target, m.Rule, popOf, count(m.TargetPop), d.Name, unpopular[eco])
		if h := handed(in.Facts(), d); h != "" {
			msg += "; the entry starts it with " + h + " in its environment"
		}
		e := checks.At(d.File, d.Line, d.Col, msg)
		if m.Warn {
			warns = append(warns, e)
		} else {
			fails = append(fails, e)
		}
	}
	switch {
	case n == 0:
		return checks.NotApplicable("no npm or PyPI dependency names"), nil
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), warns...), nil
	}
	return checks.Passed(fmt.Sprintf("%s checked against the 5,000 most downloaded of their ecosystem", checks.Plural(n, "dependency name"))), nil
}

// handed names the secrets a launch spec hands the package it launches
// (an MCP client configuration's env), each with its line.
func handed(set *facts.Set, d deps.Dep) string {
	if d.From != deps.FromLauncher {
		return ""
	}
	var out []string
	for _, f := range set.Flows {
		if f.To.API == "mcp-launch" && f.To.At.Path == d.File && f.To.At.Line == d.Line && f.From.Label.Secret() {
			out = append(out, fmt.Sprintf("%s (%s:%d)", f.From.What, f.From.At.Path, f.From.At.Line))
		}
	}
	return strings.Join(out, ", ")
}

var unpopular = map[Ecosystem]string{NPM: "under 50,000", PyPI: "not among the 15,000 most downloaded"}

// count writes a download count the way people say it.
func count(n int64) string {
	switch {
	case n >= 1_000_000_000:
		return fmt.Sprintf("%.1f billion", float64(n)/1e9)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f million", float64(n)/1e6)
	}
	return fmt.Sprint(n)
}
