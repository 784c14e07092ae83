package pluginhooksnotprivileged

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is plugin-hooks-not-privileged.
var Check = &checks.Check{
	ID:          "plugin-hooks-not-privileged",
	Version:     "2.2.0",
	Title:       "Hooks and settings take no privilege",
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

var (
	baseURLVar = lex.Lazy(`(?i)\b(ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|OPENAI_BASE_URL|OPENAI_API_BASE|CLAUDE_CODE_API_URL|ANTHROPIC_BEDROCK_BASE_URL|ANTHROPIC_VERTEX_BASE_URL)\s*=`)
	// NAME=value, in the environment variable's shape; whether NAME holds
	// a secret is the vocabulary's to say
	assignVar = lex.Lazy(`\b([A-Z][A-Z0-9_]*)\s*=\s*\S`)
	allowOut  = lex.Lazy(`(?i)permissionDecision\\?"?\s*:\s*\\?"?allow|\\?"decision\\?"\s*:\s*\\?"approve`)
	modelVars = []string{"ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "CLAUDE_CODE_API_URL", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL"}
)

// assignsSecret names the first secret-named variable a text assigns.
func assignsSecret(text string) string {
	for _, m := range assignVar.Re().FindAllStringSubmatch(text, -1) {
		if vocab.SecretEnv(m[1]) {
			return m[1]
		}
	}
	return ""
}

func broad(matcher string) bool {
	m := strings.TrimSpace(matcher)
	return m == "" || m == "*" || m == ".*" || strings.EqualFold(m, "Bash") || m == ".+"
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	set := in.Facts()
	var fails, warns []checks.Evidence
	looked := 0
	// What the hooks run: their commands (lowered by the model as "hook
	// EVENT") and the shipped scripts those run, followed a few levels.
	scripts := map[string]bool{}
	var reach func(text string, depth int)
	reach = func(text string, depth int) {
		found, _ := hooks.Scripts(s.Inventory, text)
		for _, f := range found {
			if scripts[f] || depth > 4 {
				continue
			}
			scripts[f] = true
			if data, ok := s.Inventory.Read(f); ok {
				reach(string(data), depth+1)
			}
		}
	}
	hookFiles := map[string]bool{}
	for _, h := range hooks.All(s) {
		looked++
		hookFiles[h.File] = true
		reach(h.Command, 0)
		at := func(msg string) checks.Evidence {
			return checks.At(h.File, h.Pos.Line, 0, fmt.Sprintf("%s hook: %s", h.Event, msg))
		}
		texts := []string{h.Command}
		conditional := false
		found, _ := hooks.Scripts(s.Inventory, h.Command)
		for _, f := range found {
			if data, ok := s.Inventory.Read(f); ok {
				texts = append(texts, string(data))
				if strings.Contains(string(data), "if ") || strings.Contains(string(data), "case ") || strings.Contains(string(data), "? ") {
					conditional = true
				}
			}
		}
		all := strings.Join(texts, "\n")
		switch {
		case allowOut.Re().MatchString(h.Command) && broad(h.Matcher):
			fails = append(fails, at(fmt.Sprintf("approves every %q tool call without asking the user", h.Matcher)))
		case allowOut.Re().MatchString(all) && broad(h.Matcher) && !conditional:
			fails = append(fails, at(fmt.Sprintf("its script approves every %q tool call without asking the user", h.Matcher)))
		case allowOut.Re().MatchString(all):
			warns = append(warns, at("decides tool permissions"))
		}
		if baseURLVar.Re().MatchString(all) {
			fails = append(fails, at("redirects model traffic to another base URL"))
		}
		if name := assignsSecret(all); name != "" {
			fails = append(fails, at("assigns an API key or auth token ("+name+")"))
		}
		if h.Event == "SessionStart" && (strings.Contains(h.Command, "suppressOutput") || strings.Contains(all, `"suppressOutput": true`)) {
			warns = append(warns, at("runs silently at session start"))
		}
	}
	hookRun := func(at facts.Span, _ facts.Context) bool {
		if scripts[at.Path] {
			return true
		}
		return hookFiles[at.Path] && len(at.Via) > 0 && strings.HasPrefix(at.Via[0], "hook ")
	}
	f, w := shell.Judge(set, shell.Scope{In: hookRun})
	fails, warns = append(fails, f...), append(warns, w...)
	// Another agent's configuration written by a hook: its tokens and
	// settings are the user's.
	for _, sk := range set.Sinks {
		if sk.Kind == facts.FileWrite && hookRun(sk.At, sk.Ctx) && query.Stands(sk.Ctx) && vocab.Labels(sk.DestLabels).Has("agent-config") {
			fails = append(fails, query.SinkEvidence(sk, "a hook writes the user's agent configuration "+sk.Dest))
		}
	}
	for _, st := range s.Manifests.Settings {
		if !st.Ok() {
			continue
		}
		looked++
		root := st.V.Root
		at := func(v *manifest.JSON, msg string) checks.Evidence {
			line := 1
			if v != nil {
				line = v.Pos.Line
			}
			return checks.At(st.Path, line, 0, msg)
		}
		if env := root.Get("env"); env != nil {
			for _, m := range env.Members {
				v, _ := m.Value.String()
				switch {
				case contains(modelVars, m.Key):
					fails = append(fails, at(m.Value, fmt.Sprintf("sets %s: model traffic goes elsewhere", m.Key)))
				case vocab.SecretEnv(m.Key) && strings.TrimSpace(v) != "":
					fails = append(fails, at(m.Value, fmt.Sprintf("assigns %s", m.Key)))
				}
			}
		}
		perms := root.Get("permissions")
		if mode, ok := perms.Get("defaultMode").String(); ok && mode == "bypassPermissions" {
			fails = append(fails, at(perms.Get("defaultMode"), "defaultMode bypassPermissions: no tool call asks the user"))
		}
		for _, a := range perms.Get("allow").Strings() {
			if v := strings.TrimSpace(a.Value); v == "*" || v == "Bash" || v == "Bash(*)" || v == "Bash(*:*)" {
				fails = append(fails, checks.At(st.Path, a.Pos.Line, 0, fmt.Sprintf("allows %q without asking", v)))
			}
		}
		if v := root.Get("enableAllProjectMcpServers"); v != nil && v.Kind == manifest.JSONBool && v.Bool {
			fails = append(fails, at(v, "enableAllProjectMcpServers: every project MCP server starts unasked"))
		}
		// apiKeyHelper and statusLine are commands the client runs on its
		// own, again and again: read through the same shell producer.
		for _, key := range []string{"apiKeyHelper", "statusLine"} {
			v := root.Get(key)
			cmd, _ := v.String()
			if cmd == "" {
				cmd, _ = v.Get("command").String()
			}
			if cmd == "" {
				continue
			}
			sub := analysis.Code("shell", st.Path, cmd, int32(v.Pos.Line-1), 0)
			f, w := shell.Judge(sub, shell.Scope{In: func(facts.Span, facts.Context) bool { return true }})
			for i := range f {
				f[i].Message = key + ": " + f[i].Message
			}
			for i := range w {
				w[i].Message = key + ": " + w[i].Message
			}
			fails, warns = append(fails, f...), append(warns, w...)
		}
	}
	if looked == 0 {
		return checks.NotApplicable("no hooks and no shipped settings"), nil
	}
	return shell.Outcome(fails, warns, "hooks and settings take no privilege"), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
