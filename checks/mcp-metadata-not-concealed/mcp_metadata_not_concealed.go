package mcpmetadatanotconcealed

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/instruct"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/uni"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-metadata-not-concealed.
var Check = &checks.Check{
	ID:          "mcp-metadata-not-concealed",
	Version:     "1.3.0",
	Title:       "MCP metadata hides nothing from the reader",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// unitSymbols are Greek letters used as symbols beside Latin letters.
const unitSymbols = "μµπΔΩΣαβγδελθσφωΦΨ"

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := surface.Of(in.Subject)
	var fails []checks.Evidence
	strs := 0
	s.Strings(func(kind, entry, field, text string, site mcp.Site) bool {
		strs++
		what := fmt.Sprintf("%s %q %s", kind, entry, field)
		if kind == "server" {
			what = "server " + field
		}
		if msg := judge(text); msg != "" {
			fails = append(fails, surface.At(site, what+": "+msg))
		}
		return true
	})
	fails = append(fails, encoded(in.Facts())...)
	switch {
	case len(fails) > 0:
		return checks.Failed(fails[0].Where(), fails...), nil
	case strs == 0:
		return checks.NotApplicable("no MCP surface found"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, nothing hidden or disguised", checks.Plural(strs, "string"))), nil
}

// encoded finds commands a surface string carries encoded: the analysis
// model decodes base64 and hex runs in what the model reads, and an
// action found in the decoded text is one the reader of the tool list
// cannot see. The payload itself is never quoted.
func encoded(set *facts.Set) []checks.Evidence {
	var out []checks.Evidence
	seen := map[string]bool{}
	for _, sk := range set.Sinks {
		if sk.Kind == facts.ModelInstruction || !query.Stands(sk.Ctx) || !sk.Ctx.Has(facts.ModelReads) || !fromSurface(sk.At.Via) {
			continue
		}
		enc := ""
		for _, v := range sk.At.Via {
			if e, _, ok := strings.Cut(v, " at line "); ok && (e == "base64" || e == "hex") {
				enc = e
			}
		}
		if enc == "" || len(sk.At.Via) == 0 {
			continue
		}
		msg := fmt.Sprintf("%s: a %s run decodes to a command (%s %s)", sk.At.Via[0], enc, sk.Kind, sk.API)
		if k := fmt.Sprint(sk.At.Path, sk.At.Line, msg); !seen[k] {
			seen[k] = true
			out = append(out, checks.At(sk.At.Path, sk.At.Line, 0, msg))
		}
	}
	return out
}

// fromSurface reports a fact the analysis model read from a surface
// string: its way starts at a tool, prompt or resource, or the server's
// instructions.
func fromSurface(via []string) bool {
	if len(via) == 0 {
		return false
	}
	v := via[0]
	return strings.HasPrefix(v, "tool ") || strings.HasPrefix(v, "prompt ") || strings.HasPrefix(v, "resource ") || v == "server instructions"
}

// judge names what conceals text in s, or returns "".
func judge(s string) string {
	if ascii(s) { // most strings: only control characters can hide here
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
				if c == 0x1B {
					return "an ANSI escape sequence (U+001B)"
				}
				return fmt.Sprintf("control character U+%04X", c)
			}
		}
		return ""
	}
	if hits := uni.Scan(s); len(hits) > 0 {
		h := hits[0]
		if d := h.Decoded(); d != "" {
			return fmt.Sprintf("%s %s spelling %q", h.Class, h.Names(), d)
		}
		return fmt.Sprintf("%s %s", h.Class, h.Names())
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F || r >= 0x80 && r <= 0x9F {
			if r == 0x1B {
				return "an ANSI escape sequence (U+001B)"
			}
			return fmt.Sprintf("control character U+%04X", r)
		}
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		latin, other := uni.Scripts(w)
		if latin && other && !unitLike(w) {
			return fmt.Sprintf("the word %q mixes Latin with Cyrillic, Greek or Armenian letters", w)
		}
		if !latin && other && len([]rune(w)) >= 3 && asciiWord(instruct.Normalize(w)) {
			return fmt.Sprintf("the word %q is written in another script but reads as %q", w, instruct.Normalize(w))
		}
	}
	return ""
}

// unitLike: Latin letters beside one Greek unit or math symbol (μs, Δt).
func unitLike(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.In(r, unicode.Cyrillic, unicode.Armenian) {
			return false
		}
		if unicode.Is(unicode.Greek, r) || r == 'µ' {
			if !strings.ContainsRune(unitSymbols, r) {
				return false
			}
			n++
		}
	}
	return n == 1
}

func asciiWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
