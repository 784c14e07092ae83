package nopersistence

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-persistence.
var Check = &checks.Check{
	ID:          "no-persistence",
	Version:     "1.0.0",
	Title:       "Installs nothing that outlives its use",
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

// always are locations a write to which is a backdoor whoever asked.
func always(labels []string, dest string) bool {
	d := strings.ToLower(dest)
	return strings.Contains(d, "authorized_keys") || strings.Contains(d, "ld.so.preload")
}

// plain: a shell rc file or git configuration, where most writes are a
// user's own alias or PATH entry.
func plain(dest string) bool {
	d := strings.ToLower(dest)
	for _, s := range []string{"rc", "profile", "zshenv", "zlogin", ".gitconfig", "git/config", "config.fish"} {
		if strings.HasSuffix(d, s) {
			return true
		}
	}
	return false
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	tainted := map[string]bool{}
	for _, f := range set.Flows {
		if f.To.Kind != facts.Persist || !query.Stands(f.From.Ctx|f.To.Ctx) {
			continue
		}
		switch f.From.Label {
		case facts.RemoteContent, facts.Decoded:
			fails = append(fails, query.FlowEvidence(f, "is written to a persistence location by"))
			tainted[fmt.Sprintf("%s:%d", f.To.At.Path, f.To.At.Line)] = true
		default:
			if f.From.Label.Secret() {
				fails = append(fails, query.FlowEvidence(f, "is written to a persistence location by"))
				tainted[fmt.Sprintf("%s:%d", f.To.At.Path, f.To.At.Line)] = true
			}
		}
	}
	// What a persistence location was given to run: a download, a remote
	// shell, a secret sent.
	for _, f := range set.Flows {
		if via := writtenTo(f.To.At); via != "" && (f.From.Label == facts.RemoteContent || f.From.Label == facts.Decoded || f.From.Label.Secret()) {
			fails = append(fails, query.SinkEvidence(f.To, fmt.Sprintf("%s: it will run %s on every start", via, query.Describe(f.To))))
			tainted[fmt.Sprintf("%s:%d", f.To.At.Path, f.To.At.Line)] = true
		}
	}
	for _, e := range set.Effects {
		if via := writtenTo(e.At); via != "" {
			fails = append(fails, query.EffectEvidence(e, via+": "+e.What))
			tainted[fmt.Sprintf("%s:%d", e.At.Path, e.At.Line)] = true
		}
	}
	for _, s := range set.Sinks {
		if s.Kind != facts.Persist || !query.Stands(s.Ctx) || tainted[fmt.Sprintf("%s:%d", s.At.Path, s.At.Line)] {
			continue
		}
		what := s.Dest
		if what == "" {
			what = s.API
		}
		ev := query.SinkEvidence(s, fmt.Sprintf("persists through %s", clip(what)))
		switch {
		case always(s.DestLabels, s.Dest):
			fails = append(fails, ev)
		case s.Ctx.Has(facts.Consent):
			// the user is asked first, or runs it themselves
		case plain(s.Dest) || s.Dest == "" && s.API == "crontab" || strings.HasPrefix(s.API, "git."):
			warns = append(warns, ev)
		default:
			fails = append(fails, ev)
		}
	}
	for _, s := range set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr.Family == "persist-memory" && query.Stands(s.Ctx) && query.ModelRead(in.Subject, s.At) {
			fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("tells the model to keep an instruction permanently (%q)", s.Instr.Phrase)))
		}
	}
	return query.Outcome(in.Subject, fails, warns, "nothing is installed to run again later"), nil
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// writtenTo names the persistence location a fact was written into ("" for
// none).
func writtenTo(at facts.Span) string {
	for _, v := range at.Via {
		if strings.HasPrefix(v, "written to ") {
			return v
		}
	}
	return ""
}
