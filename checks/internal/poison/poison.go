// Package poison judges one string of an MCP surface for instructions
// aimed at the model: the analysis the tool, prompt and resource poisoning
// checks share.
package poison

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
)

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

var (
	sensitiveWords = []string{"ssh", "id_", ".env", "mcp.json", "claude", ".aws", "netrc", "credentials", "npmrc", "pypirc", "keychain", "private key"}
	leakWords      = []string{"conversation", "chat", "history", "system prompt", "system message", "messages", "instructions"}
)

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

var sideChannel = map[string]bool{"sidenote": true, "side_note": true, "notes": true, "note": true, "context": true, "feedback": true, "debug": true, "metadata": true, "extra": true}

// Verdict of one string.
type Verdict int

const (
	Clean    Verdict = iota
	Pressure         // warn: pressure to call a tool first, alone
	Poisoned         // fail
)

// Judge reads one string of field (as mcp.Surface.Strings names fields)
// and says why it is poisoned, if it is.
func Judge(field, text string) (Verdict, string) {
	if padded(text) {
		return Poisoned, fmt.Sprintf("text hidden after %d+ blank lines or spaces", MinPadding)
	}
	n := instruct.Normalize(text)
	for _, h := range append(instruct.Instructions(n), instruct.HostileActions(n)...) {
		if !instruct.Negated(n, h.Start) {
			return Poisoned, fmt.Sprintf("instructs the model (%s)", h.Family)
		}
	}
	// Each pattern runs only on text holding one of its words: most
	// descriptions hold none, and a pattern never needed is never compiled.
	if containsAny(n, sensitiveWords) {
		if loc := sensitiveRead.Re().FindStringIndex(n); loc != nil && !instruct.Negated(n, loc[0]) {
			return Poisoned, "tells the model to read or pass a secret store or MCP client configuration"
		}
	}
	if containsAny(n, leakWords) {
		if loc := contextLeak.Re().FindStringIndex(n); loc != nil && !instruct.Negated(n, loc[0]) {
			return Poisoned, "asks for the conversation or the model's instructions"
		}
	}
	if strings.HasPrefix(field, "parameter ") && strings.HasSuffix(field, " description") {
		param := strings.TrimSuffix(strings.TrimPrefix(field, "parameter "), " description")
		if sideChannel[strings.ToLower(param)] && sideRequest.Re().MatchString(n) {
			return Poisoned, fmt.Sprintf("side-channel parameter %q asks for private data", param)
		}
	}
	if strings.Contains(n, " tool") && pressure.Re().MatchString(n) {
		return Pressure, "presses the model to call the tool first"
	}
	return Clean, ""
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

// families are the instructions a surface string must not give the model;
// in a tool's text, routing the model's tool choice is steering too.
var families = map[string]string{
	"override": "overrides the model's instructions", "rule-drop": "drops the model's rules", "persona": "reassigns the model's persona",
	"authority": "claims an authority it does not have", "conceal": "hides something from the user", "approval-skip": "skips the user's confirmation",
	"secret-request": "asks for a secret", "extract": "asks for the model's instructions or the conversation", "coerce": "makes the model act before it answers",
	"expose": "makes the model expose secrets", "parent-steer": "steers the agent", "fetch-follow": "follows instructions from fetched content",
	"tool-route": "steers the model's tool choice", "evaluator": "steers an evaluator", "persist-memory": "asks the model to keep an instruction",
	"safety-off": "turns off a safety control", "delete-broad": "asks for broad deletion", "pressure": "pressures the model",
	"read-secret": "tells the model to read a secret store",
}

// fromKind reports whether a fact of the surface belongs to one of the
// kinds, by where the builder read it from.
func fromKind(via []string, kinds map[string]bool) (string, bool) {
	if len(via) == 0 {
		return "", false
	}
	v := via[0]
	switch {
	case strings.HasPrefix(v, "tool "):
		return v, kinds["tool"]
	case strings.HasPrefix(v, "prompt "):
		return v, kinds["prompt"]
	case strings.HasPrefix(v, "resource "):
		return v, kinds["resource"]
	case v == "server instructions":
		return v, kinds["server"]
	}
	for _, x := range via {
		if x == "returned by a tool handler" {
			return "a tool's result", kinds["tool"]
		}
	}
	return "", false
}

// Run judges every string of the given kinds (tool, prompt, resource;
// "server" for the instructions) through the analysis model's reading of
// the surface, and builds the check's result. extra judges a string
// further (resource URIs, say) and returns a failure message or "". With
// skipUnresolved, registrations whose text is resolved only at run time
// turn a clean result into skip (CHECKS asks it of tools); otherwise they
// are counted and named in a pass.
func Run(in *checks.Input, kinds map[string]bool, noun string, skipUnresolved bool, extra func(kind, field, text string) string) checks.Result {
	s := surface.Of(in.Subject)
	set := in.Facts()
	var fails, warns []checks.Evidence
	add := func(file string, line int, fail bool, msg string) {
		e := checks.At(file, line, 0, msg)
		if file == "" {
			e = checks.Evidence{Type: checks.EvidenceFile, Message: msg + " (captured surface)"}
		}
		switch {
		case fail && surface.IsTest(file):
			e.Message += " (a test registration)"
			warns = append(warns, e)
		case fail:
			fails = append(fails, e)
		default:
			warns = append(warns, e)
		}
	}
	for _, sk := range set.Sinks {
		if sk.At.Medium != facts.MCPString || sk.Kind != facts.ModelInstruction {
			continue
		}
		where, ok := fromKind(sk.At.Via, kinds)
		what, known := families[sk.Instr.Family]
		if !ok || !known || !query.Stands(sk.Ctx) {
			continue
		}
		msg := fmt.Sprintf("%s %s (%s: %q)", where, what, sk.Instr.Family, sk.Instr.Phrase)
		add(sk.At.Path, sk.At.Line, !sk.Instr.Weak && !sk.Ctx.Has(facts.Quoted), msg)
	}
	for _, f := range set.Flows {
		if f.To.At.Medium != facts.MCPString || !f.From.Label.Secret() {
			continue
		}
		where, ok := fromKind(f.To.At.Via, kinds)
		if !ok || !query.Stands(f.To.Ctx) {
			continue
		}
		add(f.To.At.Path, f.To.At.Line, true, fmt.Sprintf("%s tells the model to hand over %s (%s) to %s", where, query.Label(f.From.Label), f.From.What, f.To.Dest))
	}
	strs := 0
	s.Strings(func(kind, entry, field, text string, site mcp.Site) bool {
		if !kinds[kind] {
			return true
		}
		strs++
		if v, _ := Judge(field, text); v == Poisoned && padded(text) {
			add(site.File, site.Line, true, fmt.Sprintf("%s %q %s hides text after a padding run", kind, entry, field))
		}
		if extra != nil {
			if why := extra(kind, field, text); why != "" {
				add(site.File, site.Line, true, fmt.Sprintf("%s %q %s %s", kind, entry, field, why))
			}
		}
		return true
	})
	fails, warns = dedupe(fails), dedupe(warns)
	count := 0
	var first mcp.Unresolved
	for _, u := range s.Unresolved {
		if kinds[u.Kind] {
			if count == 0 {
				first = u
			}
			count++
		}
	}
	entries := 0
	switch {
	case kinds["tool"]:
		entries = len(s.Tools)
	case kinds["prompt"]:
		entries = len(s.Prompts)
	case kinds["resource"]:
		entries = len(s.Resources)
	}
	metric := checks.Metric("dynamic_descriptions", float64(count), "registrations")
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(append(fails, warns...), metric)...)
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), append(warns, metric)...)
	case count > 0 && skipUnresolved:
		which := "the " + first.What
		if first.Name != "" {
			which = fmt.Sprintf("%s of %q", first.What, first.Name)
		}
		return checks.Skipped(fmt.Sprintf("%s could not be read statically (%s at %s:%d)", checks.Plural(count, noun+" registration"), which, first.Site.File, first.Site.Line),
			metric, checks.At(first.Site.File, first.Site.Line, 0, "resolved only at run time: capture the surface and pass it with --surface"))
	case entries == 0:
		return checks.NotApplicable("no " + noun + "s found")
	}
	if count > 0 {
		return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model; %d resolved only at run time, not read", checks.Plural(entries, noun), checks.Plural(strs, "string"), count),
			metric, checks.At(first.Site.File, first.Site.Line, 0, "resolved only at run time: capture the surface and pass it with --surface to read it"))
	}
	return checks.Passed(fmt.Sprintf("%s, %s read, none instructs the model", checks.Plural(entries, noun), checks.Plural(strs, "string")), metric)
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
