package nodownloadandrun

import (
	"context"
	"fmt"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-download-and-run.
var Check = &checks.Check{
	ID:          "no-download-and-run",
	Version:     "1.5.0",
	Title:       "Runs no code it downloads or decodes",
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

var runs = map[facts.SinkKind]bool{facts.ExecShell: true, facts.ExecCode: true, facts.Deserialize: true}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	for _, f := range set.Flows {
		if !runs[f.To.Kind] || f.From.Label != facts.RemoteContent && f.From.Label != facts.Decoded {
			continue
		}
		if !query.Stands(f.From.Ctx|f.To.Ctx) || f.From.Label == facts.RemoteContent && query.Loopback(f.From.What) {
			continue
		}
		verb := "is run by"
		if f.From.Label == facts.Decoded {
			ev := query.FlowEvidence(f, verb)
			ev.Message = fmt.Sprintf("code decoded from an opaque string (%s) %s %s [%s]", f.From.What, verb, query.Describe(f.To), f.Strength)
			fails = append(fails, ev)
			continue
		}
		ev := query.FlowEvidence(f, verb)
		ev.Message = fmt.Sprintf("content downloaded from %s (at %s:%d) %s %s [%s]", f.From.What, f.From.At.Path, f.From.At.Line, verb, query.Describe(f.To), f.Strength)
		if documentedInstaller(set.Intent, f) {
			ev.Message += "; the official installer of a toolchain, run as a documented step: review it"
			warns = append(warns, ev)
			continue
		}
		if query.InImage(f.To.Ctx) && f.To.Ctx.Has(facts.InDoc) {
			// a Dockerfile a document shows: content for an image build,
			// never a command the model runs
			ev.Message += "; a Dockerfile step a document shows, run inside the image it builds: review it"
			warns = append(warns, ev)
			continue
		}
		fails = append(fails, ev)
	}
	fails = append(fails, prerequisites(in, set)...)
	for _, s := range set.Sinks {
		if s.Kind != facts.Install || !query.Stands(s.Ctx) {
			continue
		}
		switch st, ev := offRegistry(set.Intent, s); {
		case st == checks.Fail && query.InImage(s.Ctx):
			ev.Message += "; inside the container image it builds: review it"
			warns = append(warns, ev)
		case st == checks.Fail:
			fails = append(fails, ev)
		case st == checks.Warn:
			warns = append(warns, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, "no downloaded or decoded content is run"), nil
}

// documentedInstaller: a document's step that runs a well-known
// toolchain's installer, or one from the vendor the artifact names as its
// own (its home, its repository).
func documentedInstaller(intent facts.Intent, f facts.Flow) bool {
	if !documented(f) {
		return false
	}
	return query.VendorInstaller(intent, f.From.What)
}

// documented: a step a person runs from the documentation or while
// building the artifact (a Dockerfile RUN, a CI step), not code the
// artifact runs on its own.
func documented(f facts.Flow) bool {
	c := f.To.Ctx | f.From.Ctx
	return c.Has(facts.InDoc) || c.Has(facts.BuildTime)
}
