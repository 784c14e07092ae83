package noassembledcredentials

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/secrets"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-assembled-credentials.
var Check = &checks.Check{
	ID:          "no-assembled-credentials",
	Version:     "1.2.0",
	Title:       "No credentials assembled in code",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails []checks.Evidence
	n := 0
	for f, fl := range files.Code(in.Subject) {
		n++
		raw := map[string]bool{}
		for _, t := range fl.Toks {
			if s, ok := fold.Unquote(t); ok && (t.Kind == lex.String || t.Kind == lex.Template) {
				raw[s] = true
			}
		}
		seen := map[string]bool{}
		judge := func(derived string, line int) {
			if len(derived) < 16 || raw[derived] || seen[derived] {
				return
			}
			seen[derived] = true
			for _, m := range secrets.Scan(f.Path, []byte(derived)) {
				value := derived[m.Start:m.End]
				if literalHolds(raw, value) {
					continue
				}
				fails = append(fails, checks.At(f.Path, line, 0, "a secret assembled from parts, matching rule "+m.Rule))
				return
			}
		}
		for i := 0; i+2 < len(fl.Toks); i++ {
			t := fl.Toks[i]
			if t.Kind == lex.Ident && fl.Toks[i+1].Text == "=" {
				if v, ok := fl.Consts[t.Text]; ok {
					judge(v, int(t.Line))
				}
			}
		}
		for _, c := range fl.Calls() {
			for _, a := range c.Args {
				if len(a) < 2 {
					continue // a lone literal or constant is judged elsewhere
				}
				if v, ok := fl.Eval(a, 0); ok {
					judge(v, c.Line)
				}
			}
		}
	}
	if r, ok := query.CodeSkipped(in.Subject); ok && len(fails) == 0 {
		return r, nil
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), fails...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript or Python code"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, nothing assembled", checks.Plural(n, "code file"))), nil
}

// literalHolds reports whether one raw literal already contains the value
// (that is no-hardcoded-secrets' finding, not an assembly).
func literalHolds(raw map[string]bool, value string) bool {
	for s := range raw {
		if strings.Contains(s, value) {
			return true
		}
	}
	return false
}
