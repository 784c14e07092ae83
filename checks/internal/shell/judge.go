package shell

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
)

// Scope is what a judgement covers: the facts of the commands an artifact
// has run on the user's behalf (install scripts, hooks, MCP launch specs,
// the components a plugin bundles).
type Scope struct {
	// In reports whether a fact, at its span and in its context, belongs
	// to what is judged.
	In func(at facts.Span, ctx facts.Context) bool
	// Spreads: publishing or pushing is the artifact spreading itself
	// (an install script), not a step its user takes (a release command,
	// a hook that pushes the user's own repository).
	Spreads bool
}

// runs are the sinks that execute what reaches them.
var runs = map[facts.SinkKind]bool{facts.ExecShell: true, facts.ExecCode: true, facts.Deserialize: true}

// sends are the sinks that carry data off the machine.
var sends = map[facts.SinkKind]bool{facts.NetSend: true, facts.NetConnect: true, facts.DNS: true, facts.Mail: true}

// Judge rates what the analysis model records for the facts in scope, as
// one rule set for install scripts, hooks and launch specs: running what
// was downloaded or decoded, a shell bound to a connection, a secret or
// the machine's identity sent away, a credential store read, persistence,
// privilege, destruction and defence evasion fail; sudo and obfuscation
// warn. A labelled example or a prohibition in a document stands for
// nothing (query.Stands).
func Judge(set *facts.Set, sc Scope) (fails, warns []checks.Evidence) {
	for _, f := range judge(set, sc) {
		if f.sev == Fail {
			fails = append(fails, f.ev)
		} else {
			warns = append(warns, f.ev)
		}
	}
	return fails, warns
}

type finding struct {
	cat Category
	sev Severity
	ev  checks.Evidence
}

func judge(set *facts.Set, sc Scope) []finding {
	var out []finding
	fail := func(c Category, ev checks.Evidence) { out = append(out, finding{c, Fail, ev}) }
	warn := func(c Category, ev checks.Evidence) { out = append(out, finding{c, Warn, ev}) }
	for _, f := range set.Flows {
		if !sc.In(f.To.At, f.To.Ctx) || !query.Stands(f.From.Ctx|f.To.Ctx) {
			continue
		}
		switch {
		case runs[f.To.Kind] && (f.From.Label == facts.RemoteContent || f.From.Label == facts.Decoded):
			if f.From.Label == facts.RemoteContent && query.Loopback(f.From.What) {
				continue
			}
			ev := query.FlowEvidence(f, "is run by")
			if documented(f.From.Ctx|f.To.Ctx) && query.VendorInstaller(set.Intent, f.From.What) {
				ev.Message += "; the official installer of a toolchain, run as a documented step: review it"
				warn(DownloadExec, ev)
				continue
			}
			if f.From.Label == facts.Decoded {
				fail(DecodeExec, ev)
			} else {
				fail(DownloadExec, ev)
			}
		case runs[f.To.Kind] && f.From.Label == facts.Socket:
			fail(ReverseShell, query.FlowEvidence(f, "is run by"))
		case sends[f.To.Kind] && f.From.Label.Secret():
			if query.Loopback(f.To.Dest) {
				continue
			}
			ev := query.FlowEvidence(f, "is sent by")
			switch {
			case query.ViaCredential(f) && f.To.API == "mcp-remote":
				// a remote MCP server's header: how the client authenticates
				// to the server the entry names
			case query.ViaCredential(f) && query.Declared(set.Intent, f.To.Dest):
				warn(CredentialSend, ev) // a token as the credential of a service the artifact names
			default:
				fail(CredentialSend, ev)
			}
		case sends[f.To.Kind] && f.From.Label == facts.SystemInfo && !query.Loopback(f.To.Dest):
			ev := query.FlowEvidence(f, "is sent by")
			if query.Declared(set.Intent, f.To.Dest) {
				warn(Beacon, ev)
				continue
			}
			fail(Beacon, ev)
		}
	}
	for _, ev := range downloadAndShell(set, sc) {
		fail(DownloadExec, ev)
	}
	for _, s := range set.Sources {
		if !sc.In(s.At, s.Ctx) || !query.Stands(s.Ctx) || s.Ctx.Has(facts.InDoc) {
			continue
		}
		switch s.Label {
		case facts.CredentialStore, facts.Keychain, facts.BrowserData, facts.Wallet:
			fail(CredentialRead, checks.At(s.At.Path, s.At.Line, s.At.Col, fmt.Sprintf("reads %s (%s)%s", query.Label(s.Label), s.What, via(s.At))))
		}
	}
	for _, s := range set.Sinks {
		if !sc.In(s.At, s.Ctx) || !query.Stands(s.Ctx) {
			continue
		}
		switch s.Kind {
		case facts.Persist:
			if s.Ctx.Has(facts.Consent) {
				continue // the user is asked first, or runs it themselves
			}
			if query.InImage(s.Ctx) {
				warn(Persistence, query.SinkEvidence(s, "persists through "+clip(orAPI(s))+" inside a container image"))
				continue
			}
			fail(Persistence, query.SinkEvidence(s, "persists through "+clip(orAPI(s))))
		case facts.PrivChange:
			switch why := privilege(s); {
			case why == "":
			case why == "sudo":
				warn(Sudo, query.SinkEvidence(s, "runs a command with "+s.API))
			case query.InImage(s.Ctx):
				// a user of the image being built, not of the host
				warn(Privilege, query.SinkEvidence(s, why+" inside a container image"))
			default:
				fail(Privilege, query.SinkEvidence(s, why))
			}
		case facts.Delete:
			if query.InImage(s.Ctx) {
				continue // an image's own files (rm -rf /var/lib/apt/lists/*)
			}
			if why := destroys(s); why != "" {
				fail(Destruction, query.SinkEvidence(s, why))
			}
		case facts.ProcessKill:
			for _, a := range s.Args {
				if a == "1" || a == "-1" {
					fail(Destruction, query.SinkEvidence(s, "kills every process or init ("+s.API+")"))
					break
				}
			}
		case facts.NetSend, facts.NetConnect, facts.DNS, facts.Mail:
			if query.Hostile(s) {
				fail(CaptureHost, query.SinkEvidence(s, fmt.Sprintf("reaches a %s host: %s", strings.Join(s.DestLabels, ", "), query.Describe(s))))
			}
		}
	}
	for _, e := range set.Effects {
		if !sc.In(e.At, e.Ctx) || !query.Stands(e.Ctx) {
			continue
		}
		switch e.Kind {
		case facts.SelfPropagate:
			if sc.Spreads {
				fail(SelfPropagation, query.EffectEvidence(e, "publishes or pushes on its own ("+e.What+")"))
			}
		case facts.Obfuscated, facts.SleepThenAct, facts.Unbounded:
			warn(Category(e.Kind), query.EffectEvidence(e, fmt.Sprintf("%s: %s", e.Kind, e.What)))
		default:
			c, ok := effectCategory[e.Kind]
			if !ok {
				c = Category(e.Kind)
			}
			fail(c, query.EffectEvidence(e, fmt.Sprintf("%s: %s", e.Kind, e.What)))
		}
	}
	return out
}

// effectCategory names the category of an effect that fails.
var effectCategory = map[facts.EffectKind]Category{
	facts.RemoteShell: ReverseShell, facts.DecodeExec: DecodeExec, facts.ForkLoop: Destruction, facts.Miner: Mining,
	facts.LogWipe: DefenceEvasion, facts.TimeStomp: DefenceEvasion, facts.SecurityOff: DefenceEvasion,
	facts.HistoryOff: DefenceEvasion, facts.ProtectedWrite: DefenceEvasion, facts.AntiDebug: DefenceEvasion,
}

// documented: a step a person runs from the documentation or while
// building the artifact.
func documented(c facts.Context) bool { return c.Has(facts.InDoc) || c.Has(facts.BuildTime) }

func via(at facts.Span) string {
	if len(at.Via) == 0 {
		return ""
	}
	return " (" + strings.Join(at.Via, ", ") + ")"
}

func orAPI(s facts.Sink) string {
	if s.Dest != "" {
		return s.Dest
	}
	return s.API
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// privilege says how a priv-change sink raises privilege: "sudo" for a
// command run through a privilege wrapper (a concern), a reason for a
// change that takes privilege, "" for a change to the artifact's own
// files (chmod +x ./bin/tool).
func privilege(s facts.Sink) string {
	if r := vocab.Call("shell", s.API); r != nil && r.Kind == "wrap" {
		return "sudo"
	}
	labels := vocab.Labels(s.DestLabels)
	d := vocab.NormPath(s.Dest)
	wide := labels.Has("system") || labels.Has("device") || d == "/" || d == "~"
	for _, a := range s.Args {
		switch {
		case setuid(a):
			return fmt.Sprintf("sets the setuid or setgid bit (%s %s)", s.API, a)
		case strings.Contains(a, "NOPASSWD"):
			return "grants passwordless sudo"
		case (a == "777" || a == "0777" || a == "a+rwx" || a == "o+w") && wide:
			return fmt.Sprintf("makes a system path world-writable (%s %s %s)", s.API, a, s.Dest)
		case a == "sudo" || a == "wheel" || a == "admin":
			return fmt.Sprintf("adds an account to the %s group (%s)", a, s.API)
		}
	}
	if labels.Has("priv-config") {
		return "changes " + s.Dest
	}
	return ""
}

// setuid: a mode that sets the setuid or setgid bit (4755, 2755, u+s).
func setuid(a string) bool {
	if len(a) == 4 && strings.Trim(a, "01234567") == "" && strings.ContainsRune("246", rune(a[0])) {
		return true
	}
	return strings.Contains(a, "+s") && !strings.HasPrefix(a, "-")
}

// destroys says what a delete sink destroys that is not the artifact's
// own: a disk, a system directory, the root or a home, credentials.
func destroys(s facts.Sink) string {
	d := vocab.NormPath(s.Dest)
	labels := vocab.Labels(s.DestLabels)
	switch {
	case labels.Has("device"):
		return "destroys the disk " + s.Dest + " (" + s.API + ")"
	case d == "/" || d == "/*" || d == "~" || d == "~/*" || d == "~/.":
		return "deletes " + s.Dest + " (" + s.API + ")"
	case labels.Has("system"):
		return "deletes the system path " + s.Dest + " (" + s.API + ")"
	case labels.Has("credential-store") || labels.Has("keychain") || labels.Has("wallet"):
		return "deletes " + s.Dest + " (" + s.API + ")"
	case d == "?" || d == "?/" || d == "?/*":
		return "deletes " + s.Dest + " where an unset variable makes it the root; guard it with ${VAR:?} (" + s.API + ")"
	}
	return ""
}

// downloadAndShell: one program (a line of a script, a one-liner) that
// downloads something and starts a bare shell, which reads its commands
// from its input, when the model could not trace the download into the
// shell's input (a response stream piped into a spawned shell). The two
// facts sharing the program is the evidence, at the strength same-unit.
func downloadAndShell(set *facts.Set, sc Scope) []checks.Evidence {
	key := func(at facts.Span) string {
		v := ""
		if len(at.Via) > 0 {
			v = at.Via[0]
		}
		return fmt.Sprintf("%s:%d:%s", at.Path, at.Line, v)
	}
	traced := map[string]bool{}
	for _, f := range set.Flows {
		if runs[f.To.Kind] && f.From.Label == facts.RemoteContent {
			traced[key(f.To.At)] = true
		}
	}
	downloads := map[string]facts.Source{}
	for _, s := range set.Sources {
		if s.Label == facts.RemoteContent && sc.In(s.At, s.Ctx) && query.Stands(s.Ctx) && !query.Loopback(s.What) {
			if _, ok := downloads[key(s.At)]; !ok {
				downloads[key(s.At)] = s
			}
		}
	}
	var out []checks.Evidence
	for _, sk := range set.Sinks {
		k := key(sk.At)
		src, ok := downloads[k]
		if !ok || traced[k] || sk.Kind != facts.ExecShell || !sc.In(sk.At, sk.Ctx) || !query.Stands(sk.Ctx) || !bareShell(sk) {
			continue
		}
		traced[k] = true
		what := src.What
		if what == "" {
			what = "the network"
		}
		out = append(out, query.SinkEvidence(sk, fmt.Sprintf("downloads from %s and starts a shell that reads its commands from its input (%s) in the same program [same-unit]", what, sk.API)))
	}
	return out
}

// bareShell: a shell started with no command of its own, so it runs what
// it is fed.
func bareShell(sk facts.Sink) bool {
	if sk.Dest == "" {
		r := vocab.Call("shell", sk.API)
		return r != nil && r.Kind == "exec-shell"
	}
	r := vocab.Call("shell", strings.ToLower(sk.Dest))
	return r != nil && r.Kind == "exec-shell"
}

// Outcome turns findings into a result as the checks of run-on-behalf
// commands state it: fail evidence first, then warn evidence, each once.
// Everything in their scope runs by construction (an install script, a
// hook, a launch spec, a bundled component), so no reachability note is
// added.
func Outcome(fails, warns []checks.Evidence, passed string) checks.Result {
	fails, warns = dedupe(fails), dedupe(warns)
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(fails, warns...)...)
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), warns...)
	}
	return checks.Passed(passed)
}

func dedupe(ev []checks.Evidence) []checks.Evidence {
	seen := map[string]bool{}
	var out []checks.Evidence
	for _, e := range ev {
		k := fmt.Sprintf("%s:%d:%s", e.Path, e.Line, e.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
