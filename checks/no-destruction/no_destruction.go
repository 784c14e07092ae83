package nodestruction

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-destruction.
var Check = &checks.Check{
	ID:          "no-destruction",
	Version:     "1.3.0",
	Title:       "Destroys nothing outside its own work",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// broad says why a delete sink destroys more than the artifact's own work
// ("" when it does not).
func broad(s facts.Sink) string {
	d := vocab.NormPath(s.Dest)
	labels := vocab.Labels(s.DestLabels)
	switch {
	case labels.Has("device"):
		return "destroys the disk " + s.Dest
	case d == "~" || d == "/" || d == "/*" || d == "~/*" || d == "~/." || d == "/." || d == "*" && strings.Contains(strings.Join(s.Args, " "), "/"):
		return "deletes " + s.Dest
	case labels.Has("system") && strings.Count(strings.Trim(d, "/"), "/") == 0:
		return "deletes the system directory " + s.Dest
	case labels.Has("credential-store") || labels.Has("keychain") || labels.Has("wallet"):
		return "deletes " + s.Dest
	case labels.Has("user-files") && s.Kind == facts.Delete && strings.Count(strings.TrimPrefix(d, "~/"), "/") <= 1:
		// the folder itself or everything directly in it, not a build
		// directory of a project kept there
		return "deletes the user's documents " + s.Dest
	case (d == "?" || d == "?/" || d == "?/*") && recursive(s.Args):
		// rm -rf "$DIR"/ with nothing guarding $DIR: the root when it is
		// empty
		return "deletes " + s.Dest + " where an unset variable makes it the root; guard it with ${VAR:?}"
	}
	if s.Kind == facts.ProcessKill {
		for _, a := range s.Args {
			if a == "1" || a == "-1" {
				return "kills every process or init"
			}
		}
	}
	return ""
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	for _, s := range set.Sinks {
		if !query.Stands(s.Ctx) || query.InImage(s.Ctx) && s.Kind != facts.ModelInstruction {
			continue // an image being built destroys only its own files
		}
		switch s.Kind {
		case facts.Delete, facts.ProcessKill:
			if why := broad(s); why != "" {
				fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("%s (%s)", why, s.API)))
			}
		case facts.ModelInstruction:
			if s.Instr.Family != "delete-broad" || !query.ModelRead(s.Ctx) {
				continue
			}
			ev := query.SinkEvidence(s, fmt.Sprintf("tells the model to delete broadly (%q)", s.Instr.Phrase))
			if query.OwnAction(s) {
				// a tool whose name says it deletes: what the user calls
				// it for, a concern to read
				ev.Message += ", which the tool's name says it does"
				warns = append(warns, ev)
				continue
			}
			fails = append(fails, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, "nothing outside the artifact's work is destroyed"), nil
}

func recursive(args []string) bool {
	for _, a := range args {
		if a == "-r" || a == "-R" || a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR") {
			return true
		}
	}
	return false
}
