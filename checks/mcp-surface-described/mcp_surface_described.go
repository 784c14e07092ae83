package mcpsurfacedescribed

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-surface-described.
var Check = &checks.Check{
	ID:          "mcp-surface-described",
	Version:     "1.0.0",
	Title:       "Prompts and resources are described",
	Axis:        checks.Care,
	Weight:      2,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Description length bounds, in characters.
const (
	MinDescription = 15
	MaxDescription = 1024
)

type entry struct {
	kind, name, desc string
	site             mcp.Site
}

// served reports whether a registration is part of the surface: a
// captured one always is; from source, not a test file and not provably
// unreachable.
func served(s *resolve.Subject, site mcp.Site) bool {
	if site.File == "" {
		return true
	}
	return !surface.IsTest(site.File) && !reach.Of(s).ProvablyUnreachable(site.File)
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	sf := surface.Of(in.Subject)
	var entries []entry
	for _, p := range sf.Prompts {
		entries = append(entries, entry{"prompt", p.Name, p.Description, p.Site})
	}
	for _, r := range sf.Resources {
		name := r.Name
		if name == "" {
			name = r.URI + r.URITemplate
		}
		entries = append(entries, entry{"resource", name, r.Description, r.Site})
	}
	unresolved := 0
	for _, u := range sf.Unresolved {
		if u.Kind == "prompt" || u.Kind == "resource" {
			unresolved++
		}
	}
	var warns []checks.Evidence
	judged := 0
	for _, e := range entries {
		if surface.IsTest(e.site.File) {
			continue
		}
		n := utf8.RuneCountInString(e.desc)
		if n >= MinDescription && n <= MaxDescription {
			judged++
			continue
		}
		// Only a finding needs the reachability graph: is it served?
		if !served(in.Subject, e.site) {
			continue
		}
		judged++
		var msg string
		switch {
		case n == 0:
			msg = fmt.Sprintf("%s %q has no description", e.kind, e.name)
		case n < MinDescription:
			msg = fmt.Sprintf("%s %q: a description of %d characters says too little", e.kind, e.name, n)
		case n > MaxDescription:
			msg = fmt.Sprintf("%s %q: a description of %d characters is over %d", e.kind, e.name, n, MaxDescription)
		default:
			continue
		}
		ev := checks.At(e.site.File, e.site.Line, 0, msg)
		if e.site.File == "" {
			ev = checks.Evidence{Type: checks.EvidenceFile, Message: msg + " (captured surface)"}
		}
		warns = append(warns, ev)
	}
	switch {
	case len(warns) > 0:
		score := 1 - float64(len(warns))/float64(judged)
		return checks.Warning(score, warns[0].Message, warns...), nil
	case judged == 0 && unresolved > 0:
		return checks.Skipped(fmt.Sprintf("%s, none resolved statically; capture the surface and pass it with --surface", checks.Plural(unresolved, "registration"))), nil
	case judged == 0:
		return checks.NotApplicable("no prompts or resources found"), nil
	}
	return checks.Passed(fmt.Sprintf("%s described in %d to %d characters", checks.Plural(judged, "registration"), MinDescription, MaxDescription)), nil
}
