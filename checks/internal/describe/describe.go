// Package describe judges the length of MCP descriptions for the care
// checks mcp-tool-descriptions and mcp-surface-described.
package describe

import (
	"fmt"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Description length bounds, in characters.
const (
	MinDescription = 15
	MaxDescription = 1024
)

// Entry is one registration to judge.
type Entry struct {
	Kind, Name, Desc string
	Site             mcp.Site
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

// Judge warns, graded by the share affected, on served entries with a
// description missing, shorter than MinDescription or longer than
// MaxDescription; skips when the only registrations are unresolved; is
// not applicable (none) without entries. noun names what is counted.
func Judge(s *resolve.Subject, entries []Entry, unresolved int, noun, none string) checks.Result {
	var warns []checks.Evidence
	judged := 0
	for _, e := range entries {
		if surface.IsTest(e.Site.File) {
			continue
		}
		n := utf8.RuneCountInString(e.Desc)
		if n >= MinDescription && n <= MaxDescription {
			judged++
			continue
		}
		// Only a finding needs the reachability graph: is it served?
		if !served(s, e.Site) {
			continue
		}
		judged++
		msg := fmt.Sprintf("%s %q: a description of %d characters is over %d", e.Kind, e.Name, n, MaxDescription)
		switch {
		case n == 0:
			msg = fmt.Sprintf("%s %q has no description", e.Kind, e.Name)
		case n < MinDescription:
			msg = fmt.Sprintf("%s %q: a description of %d characters says too little", e.Kind, e.Name, n)
		}
		warns = append(warns, surface.At(e.Site, msg))
	}
	switch {
	case len(warns) > 0:
		return checks.Warning(1-float64(len(warns))/float64(judged), warns[0].Message, warns...)
	case judged == 0 && unresolved > 0:
		return checks.Skipped(fmt.Sprintf("%s, none resolved statically; capture the surface and pass it with --surface", checks.Plural(unresolved, "registration")))
	case judged == 0:
		return checks.NotApplicable(none)
	}
	return checks.Passed(fmt.Sprintf("%s described in %d to %d characters", checks.Plural(judged, noun), MinDescription, MaxDescription))
}
