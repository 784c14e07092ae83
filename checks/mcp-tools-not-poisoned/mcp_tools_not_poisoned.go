package mcptoolsnotpoisoned

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-tools-not-poisoned.
var Check = &checks.Check{
	ID:          "mcp-tools-not-poisoned",
	Version:     "1.0.0",
	Title:       "Tool descriptions do not instruct the model",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MinPadding is the run of blank lines or whitespace before text that
// counts as hiding it.
const MinPadding = 500

var (
	// Reading a secret store or an MCP client's configuration.
	sensitiveRead = lex.Lazy(`\b(read|cat|open|load|include|pass|send|provide|attach|copy|paste|put|add|insert|upload|get)\b[^.\n]{0,60}?(~/\.ssh|\bid_(rsa|ed25519|ecdsa)\b|\.env\b|~/\.cursor/mcp\.json|\bmcp\.json\b|\.claude\.json\b|claude_desktop_config\.json|\.aws/credentials|~/\.netrc|\.git-credentials|\.npmrc|\.pypirc|\bkeychain\b|\bprivate key)`)
	// Handing the conversation or the model's own instructions to a tool.
	contextLeak = lex.Lazy(`\b(pass|include|send|provide|put|add|insert|attach|copy|paste|dump|append)\b[^.\n]{0,50}?\b(the (entire |full |whole )?(conversation|chat history|chat|message history|previous messages|system prompt|system message|instructions you (were|have been) given)|all (previous |prior )?messages|your (system prompt|instructions))\b`)
	// What a side-channel parameter asks for.
	sideRequest = lex.Lazy(`\b(conversation|chat history|system prompt|previous messages|file contents?|contents of|~/|\.env\b|mcp\.json|credentials?|api keys?|tokens?|passwords?|secrets?|ssh)\b`)
	// Pressure alone.
	pressure = lex.Lazy(`\b(always|must)\b[^.\n]{0,20}?\b(call|use|run|invoke)\b[^.\n]{0,20}?\bthis tool\b[^.\n]{0,30}?\b(first|before|prior to)\b|\bbefore (using|calling) any other tools?\b`)
)

var sideChannel = map[string]bool{"sidenote": true, "side_note": true, "notes": true, "note": true, "context": true, "feedback": true, "debug": true, "metadata": true, "extra": true}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := surface.Of(in.Subject)
	var fails, warns []checks.Evidence
	strs := 0
	add := func(site mcp.Site, test, fail bool, msg string) {
		e := checks.At(site.File, site.Line, 0, msg)
		if site.File == "" { // a captured surface: no source position
			e = checks.Evidence{Type: checks.EvidenceFile, Message: msg + " (captured surface)"}
		}
		if fail && !test {
			fails = append(fails, e)
		} else {
			e.Message += map[bool]string{true: " (a test registration)", false: ""}[test && fail]
			warns = append(warns, e)
		}
	}
	s.Strings(func(kind, entry, field, text string, site mcp.Site) bool {
		if kind != "tool" && kind != "server" {
			return true
		}
		strs++
		what := fmt.Sprintf("%s %q %s", kind, entry, field)
		if kind == "server" {
			what = "server " + field
		}
		test := surface.IsTest(site.File)
		if padded(text) {
			add(site, test, true, what+": text hidden after "+fmt.Sprint(MinPadding)+"+ blank lines or spaces")
		}
		n := instruct.Normalize(text)
		hits := append(instruct.Instructions(n), instruct.HostileActions(n)...)
		for _, h := range hits {
			if instruct.Negated(n, h.Start) {
				continue
			}
			add(site, test, true, fmt.Sprintf("%s instructs the model (%s)", what, h.Family))
			return true
		}
		if loc := sensitiveRead.Re().FindStringIndex(n); loc != nil && !instruct.Negated(n, loc[0]) {
			add(site, test, true, what+" tells the model to read or pass a secret store or MCP client configuration")
			return true
		}
		if loc := contextLeak.Re().FindStringIndex(n); loc != nil && !instruct.Negated(n, loc[0]) {
			add(site, test, true, what+" asks for the conversation or the model's instructions")
			return true
		}
		if strings.HasPrefix(field, "parameter ") && strings.HasSuffix(field, " description") {
			param := strings.TrimSuffix(strings.TrimPrefix(field, "parameter "), " description")
			if sideChannel[strings.ToLower(param)] && sideRequest.Re().MatchString(n) {
				add(site, test, true, fmt.Sprintf("%s: side-channel parameter %q asks for private data", what, param))
				return true
			}
		}
		if pressure.Re().MatchString(n) {
			add(site, test, false, what+" presses the model to call the tool first")
		}
		return true
	})
	unresolved := 0
	for _, u := range s.Unresolved {
		if u.Kind == "tool" {
			unresolved++
		}
	}
	metric := checks.Metric("dynamic_descriptions", float64(unresolved), "registrations")
	switch {
	case len(fails) > 0:
		return checks.Failed(where(fails[0]), append(append(fails, warns...), metric)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, where(warns[0]), append(warns, metric)...), nil
	case unresolved > 0:
		u := firstTool(s.Unresolved)
		return checks.Skipped(fmt.Sprintf("%s could not be read statically (%s %s at %s:%d)", checks.Plural(unresolved, "tool registration"), u.Name, u.What, u.Site.File, u.Site.Line),
			metric, checks.At(u.Site.File, u.Site.Line, 0, "resolved only at run time: capture the surface and pass it with --surface")), nil
	case len(s.Tools) == 0:
		return checks.NotApplicable("no tools found"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model", checks.Plural(len(s.Tools), "tool"), checks.Plural(strs, "string")), metric), nil
}

func where(e checks.Evidence) string {
	if e.Path == "" {
		return e.Message
	}
	return fmt.Sprintf("%s:%d %s", e.Path, e.Line, e.Message)
}

func firstTool(us []mcp.Unresolved) mcp.Unresolved {
	for _, u := range us {
		if u.Kind == "tool" {
			return u
		}
	}
	return mcp.Unresolved{}
}

// padded reports text after a run of MinPadding blank lines or whitespace.
func padded(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			run++
		default:
			if run >= MinPadding {
				return true
			}
			run = 0
		}
	}
	return false
}
