package lockfilepresent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/deps"
	"github.com/metahub-ai/attest/resolve"
)

// Check is lockfile-present.
var Check = &checks.Check{
	ID:          "lockfile-present",
	Version:     "1.0.0",
	Title:       "Dependencies are locked",
	Axis:        checks.Care,
	Weight:      1,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var ecoOrder = []string{deps.NPM, deps.PyPI, deps.Go, deps.Crates}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	declared := map[string]int{}
	pinnedOnly := map[string]bool{deps.PyPI: true}
	fromRequirements := false
	for _, d := range deps.Declared(s) {
		if d.From != deps.FromManifest || d.Group == "replace" {
			continue
		}
		declared[d.Ecosystem]++
		if d.Ecosystem == deps.PyPI {
			if d.Group == "requirements" {
				fromRequirements = true
			}
			if d.Group != "requirements" || !strings.HasPrefix(strings.TrimSpace(d.Spec), "==") {
				pinnedOnly[deps.PyPI] = false
			}
		}
	}
	if len(declared) == 0 {
		return checks.NotApplicable("no declared dependencies"), nil
	}
	if t := s.Source.Type; t == "npm" || t == "pypi" {
		return checks.NotApplicable("a registry package: publishing drops lockfiles"), nil
	}
	var missing, notes []string
	for _, eco := range ecoOrder {
		if declared[eco] == 0 {
			continue
		}
		switch {
		case deps.Locked(s, eco):
		case eco == deps.PyPI && fromRequirements && pinnedOnly[deps.PyPI]:
			notes = append(notes, "every Python requirement is pinned with ==")
		case s.Workspace != nil && slices.ContainsFunc(s.Workspace.Lockfiles, func(l string) bool { return slices.Contains(deps.Locks[eco], l) }):
			notes = append(notes, fmt.Sprintf("a workspace member: %s/%s declares it and the root holds %s", s.Workspace.Root, s.Workspace.Declaration, strings.Join(s.Workspace.Lockfiles, ", ")))
		default:
			missing = append(missing, fmt.Sprintf("%s (%s; want %s)", eco, checks.Plural(declared[eco], "dependency"), strings.Join(deps.Locks[eco], ", ")))
		}
	}
	if len(missing) > 0 {
		return checks.Warning(0.5, "no lockfile for "+strings.Join(missing, "; ")), nil
	}
	summary := "dependencies are locked"
	if len(notes) > 0 {
		summary += ": " + strings.Join(notes, "; ")
	}
	return checks.Passed(summary), nil
}
