package nohiddenunicode

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/uni"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-hidden-unicode.
var Check = &checks.Check{
	ID:          "no-hidden-unicode",
	Version:     "1.2.0",
	Title:       "No hidden Unicode in text",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// MaxDecoded bounds the decoded tag text shown.
const MaxDecoded = 80

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	var fails, warns []checks.Evidence
	scanned := 0
	for f := range files.Scan(s) {
		if !files.IsText(f) || files.Language(f.Path, f.Content) != "" {
			continue // code is no-trojan-source's
		}
		scanned++
		text := s.Text(f)
		if !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 }) {
			continue
		}
		modelRead := files.ModelRead(s, f.Path)
		for _, h := range uni.Scan(text) {
			pos := manifest.PosAt(f.Content, h.Offset)
			msg := fmt.Sprintf("%s: %s", h.Class, h.Names())
			if d := h.Decoded(); d != "" {
				if utf8.RuneCountInString(d) > MaxDecoded {
					d = string([]rune(d)[:MaxDecoded]) + "…"
				}
				msg += fmt.Sprintf(" spelling %q", d)
			}
			e := checks.At(f.Path, pos.Line, pos.Col, msg)
			if modelRead && h.Class != uni.PrivateUse {
				fails = append(fails, e)
			} else {
				warns = append(warns, e)
			}
		}
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d hides text from the reader (%s)", fails[0].Path, fails[0].Line, fails[0].Message), append(fails, warns...)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	case scanned == 0:
		return checks.NotApplicable("no text files"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, no hidden code points", checks.Plural(scanned, "text file"))), nil
}
