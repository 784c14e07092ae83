package nosecretexfiltration

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-secret-exfiltration.
var Check = &checks.Check{
	ID:          "no-secret-exfiltration",
	Version:     "1.1.0",
	Title:       "No secrets sent over the network",
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
	credStore = lex.Lazy(`(?i)\.ssh/|\.aws/(credentials|config)|\.netrc|\.git-credentials|\.docker/config\.json|\.kube/config|\.npmrc|\.pypirc|\.claude(/|\.json)|\.codex/|\.config/(gcloud|gh)/|Login Data|logins\.json|key4\.db|/etc/shadow|wallet\.dat|find-generic-password|(^|[/'"])\.env(['"]|$)`)
	envDump   = lex.Lazy(`\bprocess\.env\b\s*(\)|,|\}|$|;)|\.\.\.\s*process\.env\b|JSON\.stringify\(\s*process\.env\s*\)|\bos\.environ\b\s*(\)|,|$|\.copy\(|\.items\(|\.keys\(|\.values\()|dict\(\s*os\.environ\s*\)|\bos\.Environ\(\)`)
	secretEnv = lex.Lazy(`(?i)(process\.env\.|process\.env\[\s*["']|os\.environ\[\s*["']|os\.environ\.get\(\s*["']|os\.getenv\(\s*["'])[A-Z0-9_]*(KEY|TOKEN|SECRET|PASSW|PWD|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE)[A-Z0-9_]*`)
	sinkNames = map[string]bool{"fetch": true, "post": true, "put": true, "patch": true, "get": true, "request": true, "urlopen": true,
		"Request": true, "WebSocket": true, "send": true, "sendall": true, "sendmail": true, "send_message": true, "axios": true, "got": true, "connect": true}
	sinkReceivers = []string{"requests", "httpx", "axios", "got", "http", "https", "urllib", "session", "client", "socket", "smtp", "aiohttp", "s", "sock", "ws"}
	credentialArg = map[string]bool{"headers": true, "auth": true, "authorization": true, "apikey": true, "api_key": true, "token": true, "bearer": true}
)

func text(ts []lex.Token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Text)
		b.WriteByte(' ')
	}
	return b.String()
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails []checks.Evidence
	n := 0
	for f, fl := range files.Code(in.Subject) {
		n++
		// Names assigned from a source, twice over for one level of
		// propagation.
		tainted := map[string]string{}
		for pass := 0; pass < 2; pass++ {
			for i := 0; i+2 < len(fl.Toks); i++ {
				t := fl.Toks[i]
				if t.Kind != lex.Ident || fl.Toks[i+1].Text != "=" {
					continue
				}
				// The value runs to the end of its statement: the line, a
				// top-level ';', or maxValueTokens; a minified file is one
				// line of thousands of statements, and reading each to the
				// line's end made the scan quadratic.
				end, depth := i+2, 0
				for end < len(fl.Toks) && fl.Toks[end].Line == t.Line && end-i < maxValueTokens {
					switch fl.Toks[end].Text {
					case "(", "[", "{":
						depth++
					case ")", "]", "}":
						depth--
					}
					if depth < 0 || depth == 0 && (fl.Toks[end].Text == ";" || fl.Toks[end].Text == ",") {
						break
					}
					end++
				}
				if kind := source(fl, fl.Toks[i+2:end], tainted); kind != "" && kind != "secret-env" {
					tainted[t.Text] = kind
				}
			}
		}
		for _, c := range fl.Calls() {
			parts := strings.Split(c.Name, ".")
			base := parts[len(parts)-1]
			if !sinkNames[base] || len(parts) == 1 && base != "fetch" && base != "urlopen" && base != "axios" && base != "got" && base != "WebSocket" {
				continue
			}
			if len(parts) > 1 && !receiverOK(parts[0]) {
				continue
			}
			for _, a := range c.Args {
				kind := source(fl, a, tainted)
				if kind == "" {
					continue
				}
				if kind == "secret-env" && credentialArg[argName(a)] {
					continue // the credential used as such
				}
				what := map[string]string{"credential-store": "a credential store's contents", "env-dump": "the whole environment", "secret-env": "a secret environment variable in the request's data"}[kind]
				fails = append(fails, checks.At(f.Path, c.Line, 0, fmt.Sprintf("%s reaches %s", what, c.Name)))
				break
			}
		}
	}
	fails = reach.Annotate(in.Subject, fails)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), fails...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript or Python code"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, no secret reaches the network", checks.Plural(n, "code file"))), nil
}

func receiverOK(r string) bool {
	l := strings.ToLower(r)
	for _, x := range sinkReceivers {
		if l == x || strings.HasSuffix(l, x) {
			return true
		}
	}
	return false
}

// argName is a keyword argument's or object key's name ("" otherwise).
func argName(a []lex.Token) string {
	if len(a) > 1 && a[1].Text == "=" {
		return strings.ToLower(a[0].Text)
	}
	if len(a) > 1 && a[0].Text == "{" {
		if k, ok := fold.Unquote(a[1]); ok {
			return strings.ToLower(k)
		}
		return strings.ToLower(a[1].Text)
	}
	return ""
}

// hints are substrings every source pattern needs; an expression without
// any is skipped before the patterns run.
var hints = []string{"process.env", "environ", "getenv", "Environ(", ".ssh", ".aws", "netrc", "credentials", ".docker", ".kube", "npmrc", "pypirc",
	".claude", ".codex", "gcloud", "Login Data", "logins.json", "key4.db", "shadow", "wallet", "find-generic-password", ".env"}

// maxValueTokens bounds the value of one assignment.
const maxValueTokens = 256

// source says which kind of secret an expression carries, if any.
func source(fl *fold.File, ts []lex.Token, tainted map[string]string) string {
	t := text(ts)
	compact := strings.ReplaceAll(t, " ", "")
	hinted := false
	for _, h := range hints {
		if strings.Contains(compact, h) {
			hinted = true
			break
		}
	}
	if !hinted {
		for _, x := range ts {
			if _, ok := tainted[x.Text]; ok && x.Kind == lex.Ident {
				return tainted[x.Text]
			}
		}
		// A constant can still spell a path: fold before giving up.
		if v, ok := fl.Eval(ts, 0); !ok || !credStore.Re().MatchString(v) {
			return ""
		}
		return "credential-store"
	}
	for _, x := range ts {
		if k, ok := tainted[x.Text]; ok && x.Kind == lex.Ident {
			return k
		}
		if v, ok := fold.Unquote(x); ok && credStore.Re().MatchString(v) {
			return "credential-store"
		}
	}
	if v, ok := fl.Eval(ts, 0); ok && credStore.Re().MatchString(v) {
		return "credential-store"
	}
	switch {
	case envDump.Re().MatchString(strings.Join(strings.Fields(t), "")) || envDump.Re().MatchString(t):
		return "env-dump"
	case secretEnv.Re().MatchString(strings.ReplaceAll(t, " ", "")):
		return "secret-env"
	}
	return ""
}
