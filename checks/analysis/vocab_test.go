package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/prose"
	"github.com/metahub-ai/attest/checks/vocab"
)

// promised says whether a set shows the behaviour a call entry exists
// to catch: a positive example is the dangerous use, a negative example
// the benign look-alike.
func promised(e *vocab.Entry, set *facts.Set) bool {
	kind, arg, _ := strings.Cut(e.Label, ":")
	flowInto := func(k ...facts.SinkKind) bool {
		return slices.ContainsFunc(set.Flows, func(f facts.Flow) bool {
			return slices.Contains(k, f.To.Kind) && f.From.Label != facts.EnvVar
		})
	}
	flowFrom := func(l ...facts.Label) bool {
		return slices.ContainsFunc(set.Flows, func(f facts.Flow) bool { return slices.Contains(l, f.From.Label) })
	}
	privileged := func(args []string) bool {
		for _, a := range args {
			switch a {
			case "0", "root", "sudo", "wheel", "admin", "u+s", "+s", "4755", "6755", "2755", "777", "0777", "1", "-1":
				return true
			}
			if strings.Contains(a, "NOPASSWD") {
				return true
			}
		}
		return false
	}
	sinkAt := func(k ...facts.SinkKind) bool {
		return slices.ContainsFunc(set.Sinks, func(s facts.Sink) bool {
			if !slices.Contains(k, s.Kind) {
				return false
			}
			d := vocab.NormPath(s.Dest)
			return len(s.DestLabels) > 0 || d == "~" || d == "/" || d == "/*" || d == "~/*" || s.Kind == facts.Persist || s.Kind == facts.Install ||
				(s.Kind == facts.PrivChange || s.Kind == facts.ProcessKill) && privileged(s.Args)
		})
	}
	hasEffect := func(k facts.EffectKind) bool {
		return slices.ContainsFunc(set.Effects, func(x facts.Effect) bool { return x.Kind == k })
	}
	secret := []facts.Label{facts.CredentialStore, facts.EnvFile, facts.Keychain, facts.BrowserData, facts.Wallet, facts.AgentConfig,
		facts.History, facts.Keystrokes, facts.WholeEnv, facts.SecretEnv, facts.UserFiles, facts.Clipboard, facts.SystemInfo, facts.UserInput, facts.Socket}
	exec := []facts.SinkKind{facts.ExecShell, facts.ExecCode, facts.Deserialize}
	switch kind {
	case "sink":
		k := facts.SinkKind(arg)
		switch k {
		case facts.Delete, facts.PrivChange, facts.Persist, facts.ProcessKill, facts.Install, facts.NetConnect:
			return sinkAt(k) || flowInto(k)
		}
		return flowInto(k) || hasEffect(facts.RemoteShell)
	case "fetch":
		return flowFrom(facts.RemoteContent) || flowFrom(secret...)
	case "read-file", "join", "home", "env-map", "env-dump", "env-get", "source", "ctor", "wrap", "register":
		if kind == "source" && arg == "socket" {
			return flowFrom(facts.Socket) || hasEffect(facts.RemoteShell)
		}
		return flowFrom(secret...) || flowInto(exec...) || hasEffect(facts.RemoteShell) || sinkAt(facts.Persist, facts.PrivChange, facts.Delete)
	case "store":
		return flowFrom(secret...) || flowInto(exec...)
	case "write-file", "copy":
		return sinkAt(facts.FileWrite, facts.Persist, facts.PrivChange) || flowFrom(secret...)
	case "import", "getattr":
		return slices.ContainsFunc(set.Sinks, func(s facts.Sink) bool { return slices.Contains(exec, s.Kind) })
	case "exec-shell", "exec-argv", "exec-code", "deserialize":
		return flowInto(exec...) || hasEffect(facts.RemoteShell) || slices.ContainsFunc(set.Sinks, func(s facts.Sink) bool {
			return len(s.At.Via) > 0 && flowInto(facts.NetSend)
		})
	case "xform":
		if arg == "decode" || arg == "decompress" {
			return flowInto(exec...) && (flowFrom(facts.Decoded) || flowFrom(facts.RemoteContent))
		}
		return flowFrom(secret...) || flowInto(exec...)
	case "effect":
		k := facts.EffectKind(arg)
		switch arg {
		case "fork":
			k = facts.ForkLoop
		case "sleep":
			k = facts.SleepThenAct
		}
		return hasEffect(k)
	case "fd-redirect":
		return flowFrom(facts.Socket)
	case "dd":
		return sinkAt(facts.Delete)
	}
	return false
}

// Every call entry's positive examples give the fact it promises and its
// negative examples do not, through the producer of its language.
func TestCallExamples(t *testing.T) {
	for _, e := range vocab.CallEntries() {
		if _, ok := lowerers[e.Section]; !ok {
			continue // a language without a producer yet
		}
		if len(e.Pos) == 0 || len(e.Neg) == 0 {
			t.Errorf("%s: needs a positive and a negative example", e)
		}
		if l := e.Opt("lang"); l != "" && lowerers[l] == nil {
			t.Logf("%s: no producer for %s yet; its examples wait for it", e, l)
			continue
		}
		for _, src := range e.Pos {
			set := Code(e.Section, "example", src, 0, 0)
			if !promised(e, set) {
				t.Errorf("%s: positive example does not give its fact:\n%s\n%s", e, src, describe(set))
			}
		}
		for _, src := range e.Neg {
			set := Code(e.Section, "example", src, 0, 0)
			if promised(e, set) {
				t.Errorf("%s: negative example gives its fact:\n%s\n%s", e, src, describe(set))
			}
		}
	}
}

func describe(s *facts.Set) string {
	var b strings.Builder
	for _, x := range s.Sources {
		b.WriteString("  source " + string(x.Label) + " " + x.What + "\n")
	}
	for _, x := range s.Sinks {
		b.WriteString("  sink " + string(x.Kind) + " " + x.API + " → " + x.Dest + "\n")
	}
	for _, x := range s.Flows {
		b.WriteString("  flow " + string(x.From.Label) + " → " + string(x.To.Kind) + " " + x.To.API + "\n")
	}
	for _, x := range s.Effects {
		b.WriteString("  effect " + string(x.Kind) + " " + x.What + "\n")
	}
	for _, x := range s.Unresolved {
		b.WriteString("  unresolved " + x.What + "\n")
	}
	return b.String()
}

// Every phrase family's positive examples, read as a sentence of a
// document, give a standing instruction of the family; its negatives do
// not (they may give a negated or example one). An mcp-only phrase gives
// nothing outside an MCP string.
func TestPhraseExamples(t *testing.T) {
	for _, p := range vocab.Phrases() {
		for _, want := range []bool{true, false} {
			exs := p.Pos
			if !want {
				exs = p.Neg
			}
			for _, ex := range exs {
				opt := prose.Options{Plain: true, Lowerers: lowerers}
				if p.Entry.Has("mcp-only") {
					opt.Medium = facts.MCPString // read only in what an MCP client shows the model
				}
				r := prose.Lower("example.md", ex, 0, opt)
				got := false
				for _, s := range r.Set.Sinks {
					if s.Kind == facts.ModelInstruction && s.Instr.Family == p.Family && !s.Ctx.Has(facts.InExample) && !s.Ctx.Has(facts.Negated) {
						got = true
					}
				}
				if got != want {
					t.Errorf("%s: %q gives a standing %s instruction: %v, want %v", p.Entry, ex, p.Family, got, want)
				}
			}
		}
	}
}

func TestMCPOnlyPhrasesStayInMCPStrings(t *testing.T) {
	n := 0
	for _, p := range vocab.Phrases() {
		if !p.Entry.Has("mcp-only") {
			continue
		}
		for _, ex := range p.Pos {
			n++
			r := prose.Lower("README.md", ex, 0, prose.Options{Plain: true, Lowerers: lowerers})
			for _, s := range r.Set.Sinks {
				if s.Kind == facts.ModelInstruction && s.Instr.Family == p.Family {
					t.Errorf("%s: %q gives a %s instruction in a document", p.Entry, ex, p.Family)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no mcp-only phrase")
	}
}
