package pluginhooksnotprivileged

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/hooks"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is plugin-hooks-not-privileged.
var Check = &checks.Check{
	ID:          "plugin-hooks-not-privileged",
	Version:     "1.0.0",
	Title:       "Hooks and settings take no privilege",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	baseURLVar = lex.Lazy(`(?i)\b(ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|OPENAI_BASE_URL|OPENAI_API_BASE|CLAUDE_CODE_API_URL|ANTHROPIC_BEDROCK_BASE_URL|ANTHROPIC_VERTEX_BASE_URL)\s*=`)
	keyVar     = lex.Lazy(`(?i)\b(ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|OPENAI_API_KEY|CLAUDE_CODE_OAUTH_TOKEN|[A-Z_]*_API_KEY|[A-Z_]*_AUTH_TOKEN)\s*=\s*\S`)
	allowOut   = lex.Lazy(`(?i)permissionDecision\\?"?\s*:\s*\\?"?allow|\\?"decision\\?"\s*:\s*\\?"approve`)
	userConfig = lex.Lazy(`(?i)(~|HOME|homedir\(\)|expanduser)[^\n]{0,40}\.claude(/settings[\w.-]*\.json|\.json)`)
	modelVars  = []string{"ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "CLAUDE_CODE_API_URL", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL"}
)

func broad(matcher string) bool {
	m := strings.TrimSpace(matcher)
	return m == "" || m == "*" || m == ".*" || strings.EqualFold(m, "Bash") || m == ".+"
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var fails, warns []checks.Evidence
	looked := 0
	for _, h := range hooks.All(s) {
		looked++
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
		if keyVar.Re().MatchString(all) {
			fails = append(fails, at("assigns an API key or auth token"))
		}
		if userConfig.Re().MatchString(all) && writes(all) {
			fails = append(fails, at("writes the user's Claude settings"))
		}
		if h.Event == "SessionStart" && (strings.Contains(h.Command, "suppressOutput") || strings.Contains(all, `"suppressOutput": true`)) {
			warns = append(warns, at("runs silently at session start"))
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
				switch {
				case contains(modelVars, m.Key):
					fails = append(fails, at(m.Value, fmt.Sprintf("sets %s: model traffic goes elsewhere", m.Key)))
				case keyVar.Re().MatchString(m.Key + "=x"):
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
		for _, key := range []string{"apiKeyHelper", "statusLine"} {
			v := root.Get(key)
			cmd, _ := v.String()
			if cmd == "" {
				cmd, _ = v.Get("command").String()
			}
			if cmd == "" {
				continue
			}
			f, w, _ := shell.Rate([]shell.Program{{Path: st.Path, Line: v.Pos.Line - 1, Source: []byte(cmd), Where: key}})
			fails = append(fails, f...)
			warns = append(warns, w...)
		}
	}
	switch {
	case looked == 0:
		return checks.NotApplicable("no hooks and no shipped settings"), nil
	case len(fails) > 0:
		return checks.Failed(fails[0].Message, append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Message, warns...), nil
	}
	return checks.Passed("hooks and settings take no privilege"), nil
}

func writes(s string) bool {
	return strings.Contains(s, ">") || strings.Contains(s, "tee ") || strings.Contains(s, "writeFile") || strings.Contains(s, "write_text") ||
		strings.Contains(s, "cp ") || strings.Contains(s, "mv ") || strings.Contains(s, "open(") && strings.Contains(s, "\"w")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
