package pluginhookssafe

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is plugin-hooks-safe.
var Check = &checks.Check{
	ID:          "plugin-hooks-safe",
	Version:     "1.0.0",
	Title:       "Hooks run nothing hostile",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var unpinned = lex.Lazy(`\b(?:npx\s+(?:-y|--yes)|uvx|pipx\s+run|bunx)\s+(@?[\w./-]+(?:@[\w.^~-]+)?)`)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	hs := hooks.All(s)
	if len(hs) == 0 {
		return checks.NotApplicable("no hooks"), nil
	}
	var programs []shell.Program
	var warns []checks.Evidence
	seen := map[string]bool{}
	commands := 0
	for _, h := range hs {
		if h.Type != "command" || h.Command == "" {
			continue
		}
		commands++
		where := fmt.Sprintf("%s hook", h.Event)
		programs = append(programs, shell.Program{Path: h.File, Line: h.Pos.Line - 1, Source: []byte(h.Command), Where: where})
		found, missing := hooks.Scripts(s.Inventory, h.Command)
		for _, f := range found {
			if data, ok := s.Inventory.Read(f); ok && !seen[f] && (shell.IsShellFile(f, data) || strings.HasSuffix(f, ".sh")) {
				seen[f] = true
				programs = append(programs, shell.Program{Path: f, Source: data, Where: where + " script"})
			}
		}
		for _, m := range missing {
			warns = append(warns, checks.At(h.File, h.Pos.Line, 0, fmt.Sprintf("%s hook runs %s, which is not shipped", h.Event, m)))
		}
		for _, m := range unpinned.Re().FindAllStringSubmatch(h.Command, -1) {
			if !pinned(m[1]) {
				warns = append(warns, checks.At(h.File, h.Pos.Line, 0, fmt.Sprintf("%s hook runs %s without a pinned version", h.Event, m[1])))
			}
		}
	}
	fails, shellWarns, _ := shell.Rate(programs)
	warns = append(warns, shellWarns...)
	if commands > 0 && !documented(s) {
		warns = append(warns, checks.At(hs[0].File, hs[0].Pos.Line, 0, "the documentation never mentions the hooks"))
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	}
	return checks.Passed(fmt.Sprintf("%s rated, nothing hostile", checks.Plural(len(hs), "hook"))), nil
}

var versionRe = lex.Lazy(`@\d`)

func pinned(pkg string) bool {
	// @scope/name@1.2.3 or name@1.2.3; a bare scope is not a version.
	return versionRe.Re().MatchString(strings.TrimPrefix(pkg, "@"))
}

func documented(s *resolve.Subject) bool {
	for _, f := range s.Inventory.Files {
		lower := strings.ToLower(f.Path)
		if !strings.HasSuffix(lower, ".md") || strings.Count(f.Path, "/") > 1 {
			continue
		}
		if data, ok := s.Inventory.Read(f.Path); ok && lex.ContainsFold(string(data), "hook") {
			return true
		}
	}
	return false
}
