package nopersistence

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-persistence.
var Check = &checks.Check{
	ID:          "no-persistence",
	Version:     "1.4.0",
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

// beacon are the sinks that tell a server something.
var beacon = map[facts.SinkKind]bool{facts.NetSend: true, facts.DNS: true, facts.Mail: true}

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
		// a beacon: who and where the user is, reported to a server each
		// time the shell or the session starts
		if via := writtenTo(f.To.At); via != "" && f.From.Label == facts.SystemInfo && beacon[f.To.Kind] && query.Stands(f.From.Ctx|f.To.Ctx) && !query.Loopback(f.To.Dest) {
			fails = append(fails, query.SinkEvidence(f.To, fmt.Sprintf("%s: it will report %s to %s on every start", via, f.From.What, query.Describe(f.To))))
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
	removed := removedLater(set)
	unitsWritten := writesUnits(set)
	for _, s := range set.Sinks {
		if s.Kind != facts.Persist || !query.Stands(s.Ctx) || tainted[fmt.Sprintf("%s:%d", s.At.Path, s.At.Line)] {
			continue
		}
		if location(s) && (temporary(s.Dest) || removed[s.At.Path+"\x00"+s.Dest] > s.At.Line) {
			// a persistence path written into a temporary directory, or
			// removed again further down the same file (a command file
			// staged for one test run): nothing outlives the run. A program
			// handed a file (crontab FILE) has installed it by then.
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
		case always(s.DestLabels, s.Dest) && (foreignKey(s) || !inDoc || rootKeys(s.Dest)) && !query.InImage(s.Ctx):
			fails = append(fails, ev)
		case s.Ctx.Has(facts.Consent):
			// the user is asked first, or runs it themselves
		case query.InImage(s.Ctx):
			ev.Message += " inside a container image"
			warns = append(warns, ev)
		case inDoc && unasked[s.At.Path]:
			ev.Message += ", in a document that tells the model to hide it from the user"
			fails = append(fails, ev)
		case enablesUnit(s) && !unitsWritten:
			// a service the system already has, switched on: the artifact
			// installs nothing that runs
			ev.Message += " (a service the artifact does not install)"
			warns = append(warns, ev)
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
		if steers(set, s) {
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

// steers reports an instruction that turns the model against its user:
// what the instruction-injection check fails on in a document, the same
// families in a hidden channel or an MCP string, and the acting families
// (turning safety off, deleting broadly, reading a secret store). Tool
// routing, a concern (weak, quoted with nothing saying why) and following
// the artifact's own declared host do not.
func steers(set *facts.Set, s facts.Sink) bool {
	if s.Kind != facts.ModelInstruction || s.Instr == nil {
		return false
	}
	if is, fail, _ := query.Steer(set, s); is {
		return fail
	}
	switch f := s.Instr.Family; {
	case f == "persist-memory" || f == "tool-route" || s.Instr.Weak || s.Ctx.Has(facts.Quoted) || !query.Stands(s.Ctx):
		return false
	case query.Steering[f] != "":
		return s.At.Medium == facts.MCPString || s.Ctx.Has(facts.Hidden)
	}
	return true
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

// temporary: a path inside a temporary directory (mktemp -d,
// tempfile.mkdtemp), which nothing loads from and the system clears.
func temporary(dest string) bool {
	d := strings.ToLower(dest)
	return strings.HasPrefix(d, "/tmp/") || strings.HasPrefix(d, "/var/tmp/") || strings.HasPrefix(d, "/private/tmp/")
}

// location: the sink's destination is itself a persistence path (a file
// written there), not a file handed to a program that installs it.
func location(s facts.Sink) bool {
	return s.Dest != "" && s.Dest != "?" && vocab.PathLabels(s.Dest).Has("persist")
}

// removedLater: the last line at which a file deletes a path, by file and
// path (a file written and removed again further down, in a finally).
func removedLater(set *facts.Set) map[string]int {
	out := map[string]int{}
	for _, s := range set.Sinks {
		if k := s.At.Path + "\x00" + s.Dest; s.Kind == facts.Delete && s.At.Line > out[k] {
			out[k] = s.At.Line
		}
	}
	return out
}

// enablesUnit: systemctl enable (or reenable, preset) of a unit by its
// name.
func enablesUnit(s facts.Sink) bool {
	switch s.API {
	case "systemctl.enable", "systemctl.reenable", "systemctl.preset":
		return !strings.Contains(s.Dest, "/")
	}
	return false
}

// writesUnits reports an artifact that writes a systemd, launchd or init
// unit of its own.
func writesUnits(set *facts.Set) bool {
	for _, s := range set.Sinks {
		if s.Kind != facts.Persist && s.Kind != facts.FileWrite {
			continue
		}
		d := strings.ToLower(s.Dest)
		if strings.Contains(d, "systemd/") || strings.Contains(d, "launchagents") || strings.Contains(d, "launchdaemons") || strings.Contains(d, "/init.d/") {
			return true
		}
	}
	return false
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
