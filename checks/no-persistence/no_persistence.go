package nopersistence

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-persistence.
var Check = &checks.Check{
	ID:          "no-persistence",
	Version:     "1.1.0",
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
	// Documents that tell the model to hide what it does from the user: a
	// setup step there is installed behind the user's back. (Skipping
	// approval alone is no such sign: an unattended mode is a feature.)
	unasked := map[string]bool{}
	for _, s := range set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr.Family == "conceal" && !s.Instr.Weak && query.Stands(s.Ctx) {
			unasked[s.At.Path] = true
		}
	}
	// what each persistence location was given to run, by line
	runs := map[string][]string{}
	for _, s := range set.Sinks {
		if (s.Kind == facts.ExecShell || s.Kind == facts.ExecCode) && writtenTo(s.At) != "" {
			k := fmt.Sprintf("%s:%d", s.At.Path, s.At.Line)
			if r := strings.TrimSpace(s.API + " " + s.Dest); !slices.Contains(runs[k], r) {
				runs[k] = append(runs[k], r)
			}
		}
	}
	for _, s := range set.Sinks {
		if s.Kind != facts.Persist || !query.Stands(s.Ctx) || tainted[fmt.Sprintf("%s:%d", s.At.Path, s.At.Line)] {
			continue
		}
		what := s.Dest
		if what == "" || what == "-" {
			// "crontab -": the table comes from standard input
			what = s.API
		}
		msg := fmt.Sprintf("persists through %s", clip(what))
		if r := runs[fmt.Sprintf("%s:%d", s.At.Path, s.At.Line)]; len(r) > 0 {
			msg += ", which will run " + clip(strings.Join(r, "; "))
		}
		ev := query.SinkEvidence(s, msg)
		inDoc := s.Ctx.Has(facts.InDoc)
		switch {
		case always(s.DestLabels, s.Dest) && (foreignKey(s) || !inDoc || rootKeys(s.Dest)):
			fails = append(fails, ev)
		case s.Ctx.Has(facts.Consent):
			// the user is asked first, or runs it themselves
		case inDoc && unasked[s.At.Path]:
			ev.Message += ", in a document that tells the model to hide it from the user"
			fails = append(fails, ev)
		case inDoc || plain(s.Dest) || s.Dest == "" && s.API == "crontab" || strings.HasPrefix(s.API, "git."):
			// a documented setup step (a service of the tool's own, a PATH
			// line): a reviewer should see it
			warns = append(warns, ev)
		default:
			fails = append(fails, ev)
		}
	}
	// Keeping something in memory is a feature; keeping an instruction
	// that steers the model against its user is poisoning.
	steering := map[string]bool{}
	for _, s := range set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr.Family != "persist-memory" && !s.Instr.Weak && query.Stands(s.Ctx) {
			steering[s.At.Path] = true
		}
	}
	for _, f := range set.Flows {
		if f.From.Label.Secret() && query.Stands(f.To.Ctx) && (f.To.At.Medium == facts.Prose || f.To.At.Medium == facts.MCPString) {
			steering[f.To.At.Path] = true
		}
	}
	for _, s := range set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr.Family == "persist-memory" && query.Stands(s.Ctx) && query.ModelRead(s.Ctx) {
			ev := query.SinkEvidence(s, fmt.Sprintf("tells the model to keep an instruction permanently (%q)", s.Instr.Phrase))
			if steering[s.At.Path] {
				ev.Message += " in a document that also steers the model against its user"
				fails = append(fails, ev)
			} else {
				warns = append(warns, ev)
			}
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

// rootKeys: the superuser's authorized_keys, where no skill's setup
// step belongs.
func rootKeys(dest string) bool {
	d := strings.ToLower(strings.TrimSpace(dest))
	return strings.HasPrefix(d, "/root/") || strings.HasPrefix(d, "/var/root/")
}

// foreignKey: a public key literal written into authorized_keys (someone
// else's key), not the user's own key piped from their files.
func foreignKey(s facts.Sink) bool {
	for _, a := range s.Args {
		if strings.HasPrefix(a, "data:") && (strings.Contains(a, "ssh-rsa ") || strings.Contains(a, "ssh-ed25519 ") || strings.Contains(a, "ecdsa-sha2") || strings.Contains(a, "ssh-dss ")) {
			return true
		}
	}
	return false
}
