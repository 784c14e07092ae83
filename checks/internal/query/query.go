// Package query holds what the safety checks share when they query the
// analysis model: whether a fact stands (not a labelled example, not
// negated), whether a destination is one the artifact declares, and the
// evidence a finding cites (the sink's line, the source's line, the steps
// between, and whether the code can run).
package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/text"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Stands reports whether a fact is what the artifact does or asks for:
// not a labelled example, not negated.
func Stands(c facts.Context) bool {
	return !c.Has(facts.InExample) && !c.Has(facts.Negated)
}

// Declared reports whether a destination's host is one the artifact
// declares (its manifests and the documentation's own prose) or a
// subdomain of one.
func Declared(in facts.Intent, dest string) bool {
	_, h, _, ok := vocab.SplitURL(dest)
	if !ok {
		return false
	}
	for _, d := range in.Hosts {
		if h == d || strings.HasSuffix(h, "."+d) || strings.HasSuffix(d, "."+h) && strings.Count(h, ".") >= 1 {
			return true
		}
	}
	return false
}

// VendorInstaller reports a download that a documented step may run as
// a concern to review rather than a finding: a well-known toolchain's
// installer, one from a host the artifact's manifests name as its home,
// or one from a forge repository the artifact names as its own
// (VendorRepo). A host merely linked from the documentation is not
// enough: any text can link any host, and a forge hosts anyone's code.
func VendorInstaller(in facts.Intent, u string) bool {
	label := vocab.HostLabel(u)
	if label == "installer" {
		return true
	}
	if _, _, ok := vocab.ForgeRepo(u); ok {
		// a forge serves anyone's repository: only the artifact's own
		return VendorRepo(in, u)
	}
	switch label {
	case "registry":
		return Declared(in, u)
	}
	return Declared(facts.Intent{Hosts: in.Homes}, u)
}

// Hostile reports a destination labelled as a capture, paste, file-drop,
// tunnel, chat-webhook, metadata or pool host, or a public IP literal.
func Hostile(s facts.Sink) bool {
	for _, l := range s.DestLabels {
		switch l {
		case "capture", "paste", "file-drop", "tunnel", "chat-webhook", "metadata", "pool", "dyndns":
			return true
		}
	}
	return false
}

// ViaCredential reports a flow that reaches its sink only as the
// request's credential (an Authorization header, an auth argument).
func ViaCredential(f facts.Flow) bool {
	return slices.Contains(f.To.Args, "via:credential") && !slices.Contains(f.To.Args, "via:data") && !slices.Contains(f.To.Args, "via:dest")
}

// OwnAction reports an instruction in a tool's own description that is
// the tool's action, named by the tool's name ("stop a running security
// scan" for stop_scan): what calling the tool does, not a step the text
// asks of the model before or around its call.
func OwnAction(s facts.Sink) bool {
	if s.Instr == nil || len(s.At.Via) == 0 || s.At.Medium != facts.MCPString {
		return false
	}
	name, ok := strings.CutPrefix(s.At.Via[0], "tool ")
	if !ok || strings.Contains(name, " ") {
		return false // a parameter's, a title's, an annotation's text
	}
	verb, _, _ := strings.Cut(s.Instr.Phrase, " ")
	verb = strings.TrimSuffix(strings.TrimSuffix(verb, "s"), "e")
	if len(verb) < 3 {
		return false
	}
	for _, w := range text.IdentWords(name) {
		if strings.HasPrefix(w, verb) {
			return true
		}
	}
	return false
}

// InImage reports a fact that runs inside a container image (a
// Dockerfile's RUN, a script the image copies in): what it changes is the
// image's, not the user's machine.
func InImage(ctx facts.Context) bool { return ctx.Has(facts.InContainer) }

// ModelRead reports whether a fact sits in text a model reads: a
// model-read document, an MCP string, a hook's prompt.
func ModelRead(ctx facts.Context) bool { return ctx.Has(facts.ModelReads) }

func where(at facts.Span) string {
	s := fmt.Sprintf("%s:%d", at.Path, at.Line)
	if len(at.Via) > 0 {
		s += " (" + strings.Join(at.Via, ", ") + ")"
	}
	return s
}

// Describe says what a sink is, for a message: "net-send requests.post to
// https://x".
func Describe(s facts.Sink) string {
	api := strings.TrimPrefix(s.API, "prose:")
	var b strings.Builder
	switch s.Kind {
	case facts.NetSend:
		b.WriteString("a network send")
	case facts.DNS:
		b.WriteString("a DNS lookup")
	case facts.Mail:
		b.WriteString("a mail")
	case facts.NetConnect:
		b.WriteString("a connection")
	case facts.ExecShell:
		b.WriteString("a shell command")
	case facts.ExecCode:
		b.WriteString("code execution")
	default:
		b.WriteString(string(s.Kind))
	}
	if api != "" && !strings.HasPrefix(api, "<") {
		fmt.Fprintf(&b, " (%s)", api)
	}
	if s.Dest != "" {
		d := s.Dest
		if len(d) > 80 {
			d = d[:80] + "…"
		}
		fmt.Fprintf(&b, " to %s", d)
	}
	return b.String()
}

// Label names a source label for a message.
func Label(l facts.Label) string {
	switch l {
	case facts.CredentialStore:
		return "a credential store"
	case facts.EnvFile:
		return "a .env file"
	case facts.SecretEnv:
		return "a secret environment variable"
	case facts.WholeEnv:
		return "the whole environment"
	case facts.Conversation:
		return "the conversation"
	case facts.UserFiles:
		return "the user's files"
	case facts.RemoteContent:
		return "downloaded content"
	case facts.Decoded:
		return "decoded content"
	case facts.UserInput:
		return "caller input"
	}
	return strings.ReplaceAll(string(l), "-", " ")
}

// FlowEvidence is a finding about a flow: at the sink's line, naming the
// source's line and what was followed between.
func FlowEvidence(f facts.Flow, verb string) checks.Evidence {
	what := f.From.What
	if f.From.Label == facts.SecretEnv || f.From.Label == facts.EnvVar {
		what = "$" + what
	}
	msg := fmt.Sprintf("%s (%s, read at %s) %s %s", Label(f.From.Label), clip(what, 60), where(f.From.At), verb, Describe(f.To))
	if n := len(f.Steps); n > 0 {
		var ls []string
		for _, st := range f.Steps {
			ls = append(ls, fmt.Sprint(st.Line))
		}
		msg += fmt.Sprintf(" through line %s", strings.Join(slices.Compact(ls), ", "))
	}
	msg += " [" + f.Strength.String() + "]"
	return checks.At(f.To.At.Path, f.To.At.Line, f.To.At.Col, msg)
}

// SinkEvidence is a finding about a sink alone.
func SinkEvidence(s facts.Sink, msg string) checks.Evidence {
	if len(s.At.Via) > 0 {
		msg += " (" + strings.Join(s.At.Via, ", ") + ")"
	}
	return checks.At(s.At.Path, s.At.Line, s.At.Col, msg)
}

// EffectEvidence is a finding about an effect.
func EffectEvidence(e facts.Effect, msg string) checks.Evidence {
	if len(e.At.Via) > 0 {
		msg += " (" + strings.Join(e.At.Via, ", ") + ")"
	}
	return checks.At(e.At.Path, e.At.Line, e.At.Col, msg)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Outcome turns findings into a result: fail evidence first, then warn
// evidence; with neither, a pass that says what was looked at. Every item
// says whether its code can run. A program or document the model could
// not read keeps the result from pass or warn: it is skipped, naming the
// files, since what was not read may hold what the check looks for.
func Outcome(s *resolve.Subject, fails, warns []checks.Evidence, passed string) checks.Result {
	fails = dedupe(reach.Annotate(s, fails))
	warns = dedupe(reach.Annotate(s, warns))
	switch {
	case len(fails) > 0:
		// beside failures, a concern says it is one
		for i := range warns {
			warns[i].Message += " (a concern on its own)"
		}
		return checks.Failed(fails[0].Where(), append(fails, warns...)...)
	}
	if unread := analysis.Unread(s); len(unread) > 0 {
		var ev []checks.Evidence
		for _, u := range unread {
			ev = append(ev, checks.At(u.Path, 0, 0, u.Reason))
		}
		return checks.Skipped(fmt.Sprintf("%s of code or documentation could not be read: %s", checks.Plural(len(unread), "file"), unread[0].Path), append(ev, warns...)...)
	}
	switch {
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), warns...)
	}
	if unread := files.Unread(s); len(unread) > 0 {
		// what was not read cannot be cleared
		ev := make([]checks.Evidence, 0, len(unread))
		for _, p := range unread {
			ev = append(ev, checks.At(p, 0, 0, "not read in full: a scan limit, a malformed entry or an unread archive format"))
		}
		return checks.Skipped(fmt.Sprintf("nothing found in what was read, but %s not read in full", checks.Plural(len(unread), "file")), ev...)
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
	slices.SortStableFunc(out, func(a, b checks.Evidence) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return out
}

// Loopback reports a destination on the local machine (localhost, a
// loopback address): nothing leaves it.
func Loopback(dest string) bool {
	_, h, _, ok := vocab.SplitURL(dest)
	if !ok {
		return false
	}
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0"
}

// OwnPath reports a path under a directory named for the artifact
// (~/.config/<name>/…): the artifact's own files.
func OwnPath(s *resolve.Subject, p string) bool {
	if s.Name == "" || len(s.Name) < 3 {
		return false
	}
	n := strings.ToLower(s.Name)
	for _, seg := range strings.Split(strings.ToLower(strings.ReplaceAll(p, `\`, "/")), "/") {
		if seg == n || seg == "."+n {
			return true
		}
	}
	return false
}

// VendorRepo reports a URL into a forge repository the artifact names as
// its own: one its manifests or its documentation's prose name, or one
// named for the artifact or for its title ("Plan Index Manager" is
// .../plan-index-manager).
func VendorRepo(in facts.Intent, u string) bool {
	repo, name, ok := vocab.ForgeRepo(u)
	if !ok {
		return false
	}
	if slices.Contains(in.Repos, repo) {
		return true
	}
	for _, p := range in.Purpose {
		if slug(p) == name || strings.EqualFold(p, name) {
			return true
		}
	}
	return false
}

// slug writes a name as a repository name: lower case, words joined by
// hyphens.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}

// CodeSkipped is the result of a token-level check that found nothing
// when code past the budget was not read: a skip naming it, never a pass.
func CodeSkipped(s *resolve.Subject) (checks.Result, bool) {
	over := files.CodeUnread(s)
	if len(over) == 0 {
		return checks.Result{}, false
	}
	ev := make([]checks.Evidence, 0, len(over))
	for _, p := range over {
		ev = append(ev, checks.At(p, 0, 0, fmt.Sprintf("not read: past the code budget (%d MiB of JavaScript, TypeScript and Python per run)", files.MaxCodeBytes>>20)))
	}
	return checks.Skipped(fmt.Sprintf("nothing found in what was read, but %s of code past the budget not read", checks.Plural(len(over), "file")), ev...), true
}

// Written names the first line a file-write sink writes (its "data:"
// arguments) that a vocabulary words class matches, lower-cased as the
// class is written; "" for none.
func Written(s facts.Sink, class string) string {
	re := vocab.Words(class)
	if re == nil {
		return ""
	}
	for _, a := range s.Args {
		ln, ok := strings.CutPrefix(a, "data:")
		if ok && re.MatchString(strings.ToLower(ln)) {
			return strings.TrimSpace(ln)
		}
	}
	return ""
}
