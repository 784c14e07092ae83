package mcptoolsnotshadowing

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

// Check is mcp-tools-not-shadowing.
var Check = &checks.Check{
	ID:          "mcp-tools-not-shadowing",
	Version:     "1.0.0",
	Title:       "Tools do not steer other tools",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Builtins are agent built-in and client-reserved tool names.
var Builtins = []string{"Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "Task",
	"TodoWrite", "NotebookEdit", "NotebookRead", "computer", "text_editor", "str_replace_based_edit_tool", "str_replace_editor", "bash"}

var steer = lex.Lazy(`\b(when|whenever|each time|every time|if)\b[^.\n]{0,20}?\b(the )?[\w.-]+ tool\b[^.\n]{0,30}?\b(is |gets )?(used|called|invoked|run)\b[^.\n]{0,60}?\b(always|also|must|make sure|add|include|send|bcc|cc|change|replace|set)\b` +
	`|\bwhen(ever)? (you )?(use|call|invoke) (the )?[\w.-]+( tool)?\b[^.\n]{0,60}?\b(always|also|must|make sure|add|include|bcc|cc)\b` +
	`|\bthis (tool )?(replaces|supersedes|overrides) the [\w.-]+( tool)?\b` +
	`|\binstead of (using |calling )?(the )?[\w.-]+( tool)?,? (use|call) this\b` +
	`|\b(all |any |every )?other tools? (must|should|need to|have to|are required to)\b` +
	`|\b(when|before|after) (calling|using) (any |all )?other tools?\b[^.\n]{0,40}?\b(add|include|send|pass|set|always|must)\b`)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := surface.Of(in.Subject)
	var fails, warns []checks.Evidence
	n := 0
	s.Strings(func(kind, entry, field, text string, site mcp.Site) bool {
		if field != "description" && field != "instructions" {
			return true
		}
		n++
		norm := instruct.Normalize(text)
		if !steerable(norm) {
			return true
		}
		if loc := steer.Re().FindStringIndex(norm); loc != nil && !instruct.Negated(norm, loc[0]) {
			fails = append(fails, surface.At(site, fmt.Sprintf("%s %q directs how other tools behave: %q", kind, entry, clip(norm[loc[0]:loc[1]]))))
		}
		return true
	})
	for _, t := range s.Tools {
		if b, ok := collides(t.Name); ok {
			warns = append(warns, surface.At(t.Site, fmt.Sprintf("tool %q is named like the built-in %s", t.Name, b)))
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, warns[0].Where(), warns...), nil
	case len(s.Tools)+len(s.Prompts)+len(s.Resources) == 0:
		return checks.NotApplicable("no tools, prompts or resources found"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, none steers another tool; no name shadows a built-in", checks.Plural(n, "description"))), nil
}

// steerable: every alternative of steer needs one of these words, so text
// with none skips the pattern (and never compiles it).
func steerable(norm string) bool {
	for _, w := range []string{"tool", "when", "each time", "every time", "if ", "instead of", "replaces", "supersedes", "overrides"} {
		if strings.Contains(norm, w) {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// normName folds case and separators, camelCase included.
func normName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '-' || r == '_' || r == '.' || r == ' ':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// collides reports the built-in a tool name equals after normalisation or
// is one edit (Damerau-Levenshtein) away from.
func collides(name string) (string, bool) {
	n := normName(name)
	for _, b := range Builtins {
		bn := normName(b)
		if n == bn || len(bn) >= 5 && dl1(n, bn) {
			return b, true
		}
	}
	return "", false
}

// dl1 reports a Damerau-Levenshtein distance of exactly one.
func dl1(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	switch {
	case la == lb:
		diff := -1
		for i := 0; i < la; i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// a transposition of two neighbours is one edit
					return i == diff+1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	case la == lb+1:
		a, b = b, a
		fallthrough
	case lb == la+1:
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				return a[i:] == b[i+1:]
			}
		}
		return true
	}
	return false
}
