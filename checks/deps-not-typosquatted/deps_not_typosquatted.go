package depsnottyposquatted

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/resolve"
)

// Check is deps-not-typosquatted.
var Check = &checks.Check{
	ID:          "deps-not-typosquatted",
	Version:     "1.0.1",
	Title:       "Dependency names are not typosquats",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
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
		msg := fmt.Sprintf("%s resembles %s (%s; %s: %s downloads a month, %s: %s)",
			d.Name, m.Target, m.Rule, m.Target, count(m.TargetPop), d.Name, unpopular[eco])
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
