package notrojansource

import (
	"bytes"
	"context"
	"fmt"
	"go/scanner"
	"go/token"
	"strings"
	"unicode"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/internal/uni"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-trojan-source.
var Check = &checks.Check{
	ID:          "no-trojan-source",
	Version:     "1.1.1",
	Title:       "No Trojan Source in code",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

type tok struct {
	kind string // ident, string, comment, other
	text string
	line int
	col  int
}

func tokens(lang string, src []byte) []tok {
	var out []tok
	switch lang {
	case "js", "python":
		var ts []lex.Token
		if lang == "js" {
			ts = lex.JS(string(src))
		} else {
			ts = lex.Python(string(src))
		}
		for _, t := range ts {
			k := "other"
			switch t.Kind {
			case lex.Ident:
				k = "ident"
			case lex.String, lex.Template:
				k = "string"
			case lex.Comment:
				k = "comment"
			}
			out = append(out, tok{k, t.Text, int(t.Line), int(t.Col)})
		}
	case "go":
		fset := token.NewFileSet()
		file := fset.AddFile("", -1, len(src))
		var s scanner.Scanner
		s.Init(file, src, nil, scanner.ScanComments)
		for {
			pos, t, lit := s.Scan()
			if t == token.EOF {
				break
			}
			p := fset.Position(pos)
			k := "other"
			switch {
			case t == token.IDENT:
				k = "ident"
			case t == token.STRING || t == token.CHAR:
				k = "string"
			case t == token.COMMENT:
				k = "comment"
			}
			out = append(out, tok{k, lit, p.Line, p.Column})
		}
	}
	return out
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var fails, warns []checks.Evidence
	codeFiles := 0
	for f := range files.Scan(s) {
		if !files.IsText(f) {
			continue
		}
		lang := files.Language(f.Path, f.Content)
		if lang == "" {
			continue
		}
		codeFiles++
		if !bytes.ContainsFunc(f.Content, suspicious) {
			continue // nothing to reorder or disguise: skip tokenizing
		}
		fl, wn := judge(f.Path, lang, f.Content)
		fails, warns = append(fails, fl...), append(warns, wn...)
	}
	fails, warns = reach.Annotate(in.Subject, fails), reach.Annotate(in.Subject, warns)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.75, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	case codeFiles == 0:
		return checks.NotApplicable("no code files"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, nothing reordered or disguised", checks.Plural(codeFiles, "code file"))), nil
}

func judge(p, lang string, src []byte) (fails, warns []checks.Evidence) {
	ts := tokens(lang, src)
	if ts == nil {
		// No tokenizer: a line with bidi controls must be a balanced RTL text.
		for i, line := range strings.Split(string(src), "\n") {
			if uni.HasBidi(line) && !uni.BalancedRTL(line) {
				fails = append(fails, checks.At(p, i+1, 0, "bidi control outside a balanced right-to-left text"))
			}
		}
		return fails, warns
	}
	for _, t := range ts {
		if !strings.ContainsFunc(t.text, func(r rune) bool { return r >= 0x80 }) {
			continue
		}
		at := func(msg string) checks.Evidence { return checks.At(p, t.line, t.col, msg) }
		switch t.kind {
		case "string":
			if uni.HasBidi(t.text) && !uni.BalancedRTL(t.text) {
				fails = append(fails, at("bidi control in a string that is not a balanced right-to-left text: "+names(t.text)))
			}
		case "comment":
			if uni.HasBidi(t.text) {
				fails = append(fails, at("bidi control in a comment: "+names(t.text)))
			} else if strings.ContainsAny(t.text, "\u200e\u200f") {
				warns = append(warns, at("directional mark in a comment"))
			}
		case "ident":
			for _, r := range t.text {
				if c := uni.Classify(r); c == uni.Invisible || c == uni.Bidi || c == uni.Tag || c == uni.Selector || r == 0x3164 || r == 0x115F || r == 0x1160 || r == 0xFFA0 {
					fails = append(fails, at(fmt.Sprintf("invisible character U+%04X in an identifier", r)))
					break
				}
			}
			if latin, other := uni.Scripts(t.text); latin && other {
				fails = append(fails, at(fmt.Sprintf("identifier %q mixes Latin with Cyrillic, Greek or Armenian letters", t.text)))
			}
		default:
			if uni.HasBidi(t.text) {
				fails = append(fails, at("bidi control in code"))
			}
		}
	}
	// Controls the tokenizer placed between tokens (whitespace) are code too.
	for i, line := range strings.Split(string(src), "\n") {
		for _, h := range uni.Scan(line) {
			if h.Class == uni.Bidi && !covered(fails, i+1) && !inLiteral(ts, i+1) {
				pos := manifest.PosAt([]byte(line), h.Offset)
				fails = append(fails, checks.At(p, i+1, pos.Col, "bidi control in code: "+h.Names()))
			}
		}
	}
	return fails, warns
}

// suspicious: a code point that can reorder or hide code, or a letter of a
// script that mixes with Latin.
func suspicious(r rune) bool {
	if r < 0x80 {
		return false
	}
	c := uni.Classify(r)
	return c == uni.Bidi || c == uni.Invisible || c == uni.Tag || c == uni.Mark ||
		unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian)
}

func covered(ev []checks.Evidence, line int) bool {
	for _, e := range ev {
		if e.Line == line {
			return true
		}
	}
	return false
}

func inLiteral(ts []tok, line int) bool {
	for _, t := range ts {
		if t.line <= line && t.line+strings.Count(t.text, "\n") >= line && t.kind == "string" && uni.HasBidi(t.text) {
			return true
		}
	}
	return false
}

func names(s string) string {
	var parts []string
	for _, r := range s {
		if uni.Classify(r) == uni.Bidi || !unicode.IsPrint(r) && r >= 0x80 {
			parts = append(parts, fmt.Sprintf("U+%04X", r))
		}
	}
	return strings.Join(parts, " ")
}
