package instruct

import (
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/prose"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/vocab"
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

// HiddenInstructions judges a document's hidden channels: what the
// analysis model's prose producer reads in one as an instruction to the
// model (a family of the vocabulary's phrases, a secret read or sent), an
// instruction that touches a path the vocabulary labels as persistence or
// the user's secrets, or text addressed to the model with an action, fails
// (in <details>, which a click shows, only the first two count); more than
// 40 words of other hidden prose warns. Labelled-example exemptions do not
// apply: hidden text is no example. A prohibition asks for nothing.
func HiddenInstructions(d Doc, r *Result, extra []Channel) {
	for _, c := range append(Channels(d), extra...) {
		if boilerplate.Re().MatchString(c.Text) {
			continue
		}
		fail, msg := judgeHidden(d.Path, c)
		switch {
		case fail:
			r.add(true, d.Path, c.Line, msg)
		case msg != "":
			r.add(false, d.Path, c.Line, msg)
		}
	}
}

// judgeHidden rates one hidden channel: a failure with its message, a
// concern (fail false, a message), or nothing.
func judgeHidden(path string, c Channel) (bool, string) {
	res := prose.Lower(path, c.Text, max(c.Line-1, 0), prose.Options{Plain: true, Ctx: facts.Hidden | facts.ModelReads, Via: []string{c.Kind}})
	for _, s := range res.Set.Sinks {
		if s.Kind == facts.ModelInstruction && s.Instr != nil && !s.Instr.Weak && !s.Ctx.Has(facts.Negated) {
			return true, fmt.Sprintf("%s hides %s text (%q)", c.Kind, s.Instr.Family, s.Instr.Phrase)
		}
	}
	for _, f := range res.Set.Flows {
		if f.From.Label.Secret() && !f.To.Ctx.Has(facts.Negated) {
			return true, fmt.Sprintf("%s hides an instruction to send %s (%s) to %s", c.Kind, f.From.Label, f.From.What, f.To.Dest)
		}
	}
	n := Normalize(c.Text)
	if c.Kind == "details" {
		return false, ""
	}
	if p, label := touched(n); p != "" {
		return true, fmt.Sprintf("%s hides an instruction that touches %s (%s)", c.Kind, p, label)
	}
	if addressed(n) {
		return true, fmt.Sprintf("%s hides text addressed to the model with an action", c.Kind)
	}
	if w := len(strings.Fields(n)); w > 40 {
		return false, fmt.Sprintf("%s hides %d words of prose", c.Kind, w)
	}
	return false, ""
}

var (
	// actionVerb is what text addressed to the model asks of it; the
	// programs the vocabulary knows as fetching or sending count too
	// (shellSender).
	actionVerb = lex.Lazy(`^(?:read|run|execute|send|call|write|delete|include|upload|post|open|cat)$`)
	// changeVerb: what an instruction does to a path it names.
	changeVerb = lex.Lazy(`\b(?:add|append|write|install|create|copy|put|read|cat|send|upload|delete|remove|overwrite|replace|edit|modify)\b`)
	hiddenWord = lex.Lazy(`[a-z0-9][a-z0-9_.-]*`)
	hiddenPath = lex.Lazy(`(?:~|\$home)/[^\s,;()'"` + "`" + `]+|(?:^|[\s(` + "`" + `'"])(/[a-z0-9._-]+(?:/[^\s,;()'"` + "`" + `]*)+)|(?:^|[\s(` + "`" + `'"])(\.[a-z0-9_-]+(?:/[^\s,;()'"` + "`" + `]*)?)`)
)

// addressed reports text that names the model (the vocabulary's "model"
// words) and, within 80 characters of the same sentence, asks it to act,
// or that says what to do "when the user asks".
func addressed(n string) bool {
	if strings.Contains(n, "when the user asks") {
		return true
	}
	model := vocab.Words("model")
	if model == nil {
		return false
	}
	for _, m := range model.FindAll(n, 16) {
		rest := n[m[1]:]
		if i := strings.IndexByte(rest, '.'); i >= 0 {
			rest = rest[:i]
		}
		for _, w := range hiddenWord.Re().FindAllStringIndex(rest, 32) {
			if w[0] > 80 {
				break
			}
			word := strings.TrimRight(rest[w[0]:w[1]], ".-")
			if strings.HasPrefix(rest[w[1]:], "://") {
				continue // a URL's scheme is no verb
			}
			if actionVerb.Re().MatchString(word) || shellSender(word) {
				return true
			}
		}
	}
	return false
}

// shellSender reports a word the vocabulary knows as a program that
// fetches or sends (curl, wget, nc, scp).
func shellSender(w string) bool {
	r := vocab.Call("shell", w)
	return r != nil && (r.Kind == "fetch" || r.Kind == "sink" && r.Arg == string(facts.NetSend))
}

// touched finds a path the text names that the vocabulary labels as a
// persistence location or the user's secrets, in text that says to
// change, read or send it ("add this key to ~/.ssh/authorized_keys").
func touched(n string) (string, string) {
	if !changeVerb.Re().MatchString(n) {
		return "", ""
	}
	// the verb and the path in one sentence or list item: a rule about
	// tool names beside a note on which directory wins is no instruction
	// to change the directory
	for _, seg := range segmentRe.Re().Split(n, -1) {
		if changeVerb.Re().MatchString(seg) {
			if p, l := touchedIn(seg); p != "" {
				return p, l
			}
		}
	}
	return "", ""
}

// segmentRe splits normalised text into sentences and list items.
var segmentRe = lex.Lazy(`[.;!?](?:\s|$)|\s[-*•]\s`)

func touchedIn(n string) (string, string) {
	for _, m := range hiddenPath.Re().FindAllStringSubmatch(n, 16) {
		p := m[0]
		for _, g := range m[1:] {
			if g != "" {
				p = g
			}
		}
		p = strings.TrimRight(strings.TrimSpace(p), ".:")
		labels := vocab.PathLabels(p)
		if labels.Has("public") {
			continue
		}
		for _, l := range labels {
			if l == "persist" || facts.Label(l).Secret() {
				return p, l
			}
		}
	}
	return "", ""
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
