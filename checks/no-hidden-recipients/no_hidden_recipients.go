package nohiddenrecipients

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-hidden-recipients.
var Check = &checks.Check{
	ID:          "no-hidden-recipients",
	Version:     "1.2.0",
	Title:       "No hidden message recipients",
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
	emailRe   = lex.Lazy(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)
	silentKey = map[string]bool{"bcc": true, "forward": true, "forward_to": true, "forwardto": true, "forwardingaddress": true, "report_to": true, "reportto": true}
	copyKey   = map[string]bool{"cc": true, "to": true, "recipients": true, "torecipients": true, "notify": true, "chat_id": true, "chatid": true, "ccrecipients": true, "bccrecipients": true}
)

type field struct {
	key      string
	constant bool
	value    string
	line     int
}

// fields reads key: value / key=value pairs and msg["Key"] = value
// assignments of a file.
func fields(fl *fold.File) []field {
	var out []field
	ts := fl.Toks
	for i := 0; i+2 < len(ts); i++ {
		t := ts[i]
		key := ""
		valStart := -1
		switch {
		case (t.Kind == lex.Ident || t.Kind == lex.String) && (ts[i+1].Text == ":" || ts[i+1].Text == "="):
			key = t.Text
			if t.Kind == lex.String {
				key, _ = fold.Unquote(t)
			}
			valStart = i + 2
		case t.Text == "[" && i+3 < len(ts) && ts[i+1].Kind == lex.String && ts[i+2].Text == "]" && ts[i+3].Text == "=":
			key, _ = fold.Unquote(ts[i+1])
			valStart = i + 4
		default:
			continue
		}
		k := strings.ToLower(strings.ReplaceAll(key, "-", "_"))
		if !silentKey[k] && !copyKey[k] && !silentKey[strings.ReplaceAll(k, "_", "")] && !copyKey[strings.ReplaceAll(k, "_", "")] {
			continue
		}
		end := valStart
		depth := 0
		for end < len(ts) {
			x := ts[end].Text
			if depth == 0 && (x == "," || x == "}" || x == ")" || x == ";" || ts[end].Line != t.Line && x != "[" && depth == 0 && end > valStart) {
				break
			}
			if x == "[" || x == "(" || x == "{" {
				depth++
			}
			if x == "]" || x == ")" || x == "}" {
				depth--
			}
			end++
		}
		if valStart >= len(ts) || end <= valStart {
			continue
		}
		val := ts[valStart:end]
		f := field{key: k, line: int(t.Line)}
		if v, ok := fl.Eval(val, 0); ok {
			f.constant, f.value = true, strings.ReplaceAll(v, "\x00", ",")
		} else {
			// A list mixing input and a literal address is a silent copy too.
			for _, x := range val {
				if s, ok := fold.Unquote(x); ok && emailRe.Re().MatchString(s) {
					out = append(out, field{key: k, constant: true, value: s, line: int(x.Line)})
				}
			}
		}
		out = append(out, f)
	}
	return out
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails []checks.Evidence
	var notes []checks.Evidence
	n := 0
	for f, fl := range files.Code(in.Subject) {
		n++
		fs := fields(fl)
		for _, x := range fs {
			fixed := x.constant && (emailRe.Re().MatchString(x.value) || (x.key == "chat_id" || x.key == "chatid") && strings.Trim(x.value, "-0123456789") == "" && x.value != "")
			if !fixed || strings.Contains(strings.ToLower(x.value), "noreply") || strings.Contains(strings.ToLower(x.value), "no-reply") {
				continue
			}
			at := checks.At(f.Path, x.line, 0, fmt.Sprintf("fixed %s recipient", x.key))
			norm := strings.ReplaceAll(x.key, "_", "")
			switch {
			case silentKey[x.key] || silentKey[norm]:
				fails = append(fails, at)
			case inputNearby(fs, x):
				fails = append(fails, checks.At(f.Path, x.line, 0, fmt.Sprintf("fixed %s recipient beside recipients from input: a silent copy", x.key)))
			default:
				notes = append(notes, at)
			}
		}
	}
	fails = reach.Annotate(in.Subject, fails)
	if r, ok := query.CodeSkipped(in.Subject); ok && len(fails) == 0 {
		return r, nil
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), fails...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript or Python code"), nil
	case len(notes) > 0:
		return checks.Passed(fmt.Sprintf("%s to a fixed address; make sure it is documented", checks.Plural(len(notes), "message")), notes...), nil
	}
	return checks.Passed("no fixed recipients"), nil
}

// inputNearby: another recipient field within a few lines whose value is
// not constant (it comes from input).
func inputNearby(fs []field, x field) bool {
	for _, o := range fs {
		if o.line != x.line && !o.constant && o.line >= x.line-5 && o.line <= x.line+5 && copyKey[strings.ReplaceAll(o.key, "_", "")] || o.line == x.line && !o.constant {
			return true
		}
	}
	return false
}
