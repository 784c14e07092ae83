package instruct

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
)

// Channel is text a renderer hides or collapses.
type Channel struct {
	Kind string // html-comment, link-reference, link-title, alt-text, details, hidden-element, padding, frontmatter
	Text string
	Line int
}

var (
	linkRef      = lex.Lazy(`(?m)^ {0,3}\[([^\]]+)\]:\s*(\S+)(?:\s+(?:"([^"]*)"|'([^']*)'|\(([^)]*)\)))?\s*$`)
	linkTitle    = lex.Lazy(`\]\([^)\s]*\s+"([^"]+)"\)`)
	altText      = lex.Lazy(`!\[([^\]]{12,})\]\(`)
	details      = lex.Lazy(`(?is)<details[^>]*>(.*?)</details>`)
	hiddenElem   = lex.Lazy(`(?is)<(script|style|template|noscript)\b[^>]*>(.*?)</(?:script|style|template|noscript)>|<(\w+)\b[^>]*(?:\bhidden\b|display\s*:\s*none|font-size\s*:\s*0|opacity\s*:\s*0(?:\.0+)?\b|color\s*:\s*(?:#fff\b|#ffffff\b|white\b))[^>]*>(.*?)</\w+>`)
	boilerplate  = lex.Lazy(`(?i)^\s*(markdownlint|prettier-ignore|toc|/toc|end ?toc|generated|do not edit|auto-?generated|begin|end|spdx-license|copyright|license|vale |cspell|eslint|todo\b|fixme\b|#? ?region|#? ?endregion)`)
	addressed    = lex.Lazy(`\b(assistant|ai|claude|the model|the agent|llm|chatgpt|gpt|copilot|you)\b[^.]{0,80}\b(read|run|execute|send|fetch|call|write|delete|include|upload|post|open|cat|curl)\b|\bwhen the user asks\b`)
	commentStrip = strings.NewReplacer("<!--", " ", "-->", " ")
)

func lineIn(text string, off int, base int) int {
	return base + strings.Count(text[:off], "\n")
}

// Channels extracts the hidden channels of a document body.
func Channels(d Doc) []Channel {
	var out []Channel
	body := d.Body
	for _, b := range d.BodyBlocks() {
		if b.Kind == Comment {
			out = append(out, Channel{"html-comment", commentStrip.Replace(b.Text), b.Line})
		}
	}
	base := d.LineBase + 1
	if !strings.Contains(body, "]") && !strings.Contains(body, "<") {
		if end := paddingEnd(body); end > 0 && strings.TrimSpace(body[end:]) != "" {
			out = append(out, Channel{"padding", body[end:], lineIn(body, end, base)})
		}
		return out
	}
	for _, m := range when(strings.Contains(body, "]:"), linkRef, body) {
		label := body[m[2]:m[3]]
		var text string
		for g := 3; g <= 5; g++ {
			if m[2*g] >= 0 {
				text = body[m[2*g]:m[2*g+1]]
			}
		}
		if label == "//" && text == "" {
			text = body[m[4]:m[5]]
		}
		if text != "" {
			out = append(out, Channel{"link-reference", text, lineIn(body, m[0], base)})
		}
	}
	lower := strings.ToLower(body)
	for _, re := range []struct {
		kind string
		p    *lex.Pattern
		g    int
		need string
	}{{"link-title", linkTitle, 1, `"`}, {"alt-text", altText, 1, "!["}, {"details", details, 1, "<details"}} {
		if !strings.Contains(lower, re.need) {
			continue
		}
		for _, m := range re.p.Re().FindAllStringSubmatchIndex(body, -1) {
			out = append(out, Channel{re.kind, body[m[2*re.g]:m[2*re.g+1]], lineIn(body, m[0], base)})
		}
	}
	for _, m := range hiddenElemMatches(body, lower) {
		g := 2
		if m[4] < 0 {
			g = 4
		}
		out = append(out, Channel{"hidden-element", body[m[2*g]:m[2*g+1]], lineIn(body, m[0], base)})
	}
	if end := paddingEnd(body); end > 0 && strings.TrimSpace(body[end:]) != "" {
		out = append(out, Channel{"padding", body[end:], lineIn(body, end, base)})
	}
	return out
}

// HiddenInstructions judges a document's hidden channels: an analyser hit,
// or text addressed to the model with an action verb, fails (in <details>,
// which a click shows, only analyser hits count); more than 40 words of
// other hidden prose warns. Labelled-example exemptions do not apply.
func HiddenInstructions(d Doc, r *Result, extra []Channel) {
	for _, c := range append(Channels(d), extra...) {
		if boilerplate.Re().MatchString(c.Text) {
			continue
		}
		n := Normalize(c.Text)
		hits := append(Instructions(n), HostileActions(n)...)
		switch {
		case len(hits) > 0:
			r.add(true, d.Path, c.Line, fmt.Sprintf("%s hides %s text", c.Kind, hits[0].Family))
		case c.Kind != "details" && addressed.Re().MatchString(n):
			r.add(true, d.Path, c.Line, fmt.Sprintf("%s hides text addressed to the model with an action", c.Kind))
		case len(strings.Fields(n)) > 40 && c.Kind != "details":
			r.add(false, d.Path, c.Line, fmt.Sprintf("%s hides %d words of prose", c.Kind, len(strings.Fields(n))))
		}
	}
}

// Padding that pushes text out of view: 500 blank lines or 10,000
// whitespace characters in a row.
const (
	paddingLines = 500
	paddingSpace = 10_000
)

// paddingEnd returns the offset just after the first padding run, or 0.
func paddingEnd(s string) int {
	run, lines := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lines++
			run++
		case ' ', '\t', '\r':
			run++
		default:
			if run >= paddingSpace || lines >= paddingLines {
				return i
			}
			run, lines = 0, 0
		}
	}
	return 0
}

// hiddenElemMatches finds hidden elements; l is body lowered. Both forms
// close with "</".
func hiddenElemMatches(body, l string) [][]int {
	if !strings.Contains(body, "</") {
		return nil
	}
	if !strings.Contains(l, "<script") && !strings.Contains(l, "<style") && !strings.Contains(l, "<template") && !strings.Contains(l, "<noscript") &&
		!strings.Contains(l, "hidden") && !strings.Contains(l, "display") && !strings.Contains(l, "font-size") && !strings.Contains(l, "opacity") && !strings.Contains(l, "color") {
		return nil
	}
	return hiddenElem.Re().FindAllStringSubmatchIndex(body, -1)
}

func when(ok bool, p *lex.Pattern, s string) [][]int {
	if !ok {
		return nil
	}
	return p.Re().FindAllStringSubmatchIndex(s, -1)
}
