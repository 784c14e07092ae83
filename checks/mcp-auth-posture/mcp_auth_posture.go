package mcpauthposture

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-auth-posture.
var Check = &checks.Check{
	ID:          "mcp-auth-posture",
	Version:     "1.3.0",
	Title:       "An HTTP server authenticates and validates its callers",
	Axis:        checks.Safety,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	httpServer = []string{"StreamableHTTPServerTransport", "SSEServerTransport", "streamable_http_app", "sse_app", "streamable-http", `"sse"`, "StreamableHTTPHandler", "NewSSEHandler", "ListenAndServe", "uvicorn.run", ".listen("}
	// authWords name authentication (an Authorization header, OAuth, a
	// bearer scheme, an auth library); a configured secret the code reads
	// is authentication too (readsSecret).
	authWords      = []string{"auth", "bearer", "passport", "jwt"}
	originChecks   = []string{"origin", "allowedhosts", "allowed_hosts", "dnsrebinding", "trustedhost", "host header"}
	jwtVerify      = lex.Lazy(`\bjwt\.verify\s*\(`)
	jwtDecode      = lex.Lazy(`\bjwt\.decode\s*\(`)
	noVerify       = lex.Lazy(`verify_signature["']?\s*:\s*False|verify\s*=\s*False`)
	incomingAuth   = lex.Lazy(`(?i)\b(req|request|ctx|context)\b[\w.\[\]"']{0,24}headers?\b[\w.\[\]("' ]{0,12}authorization`)
	anyInterface   = lex.Lazy(`["'](0\.0\.0\.0|::|\[::\])(:\d+)?["']|["']:\d+["']`)
	corsAny        = lex.Lazy(`(?i)(origin\s*:\s*["']\*["']|allow_origins\s*=\s*\[\s*["']\*["']\s*\]|access-control-allow-origin["']\s*,\s*["']\*)`)
	corsCredential = lex.Lazy(`(?i)(credentials\s*:\s*true|allow_credentials\s*=\s*true|access-control-allow-credentials["']\s*,\s*["']true)`)
)

// readsSecret reports a file that reads a secret the model labels as one
// (the vocabulary's secret names: SERVER_TOKEN, MCP_API_KEY): a server
// compares what a caller sends with a configured secret to authenticate
// it.
func readsSecret(set *facts.Set, file string) bool {
	for _, src := range set.Sources {
		if src.At.Path == file && src.Label == facts.SecretEnv {
			return true
		}
	}
	return false
}

// sendsAt is the lines (1-based) of a file where the model records a
// network send: the outgoing requests a passthrough could ride on.
func sendsAt(set *facts.Set, file string) map[int]bool {
	out := map[int]bool{}
	for _, sk := range set.Sinks {
		if sk.At.Path == file && (sk.Kind == facts.NetSend || sk.Kind == facts.NetConnect) {
			out[sk.At.Line] = true
		}
	}
	return out
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	set := in.Facts()
	var warns []checks.Evidence
	speaksHTTP := false
	for f := range files.Scan(s) {
		lang := files.Language(f.Path, f.Content)
		if !files.IsText(f) || lang != "js" && lang != "python" && lang != "go" || strings.Contains(f.Path, "!/") {
			continue
		}
		text := s.Text(f)
		if !containsAny(text, httpServer) {
			continue
		}
		speaksHTTP = true
		authed := foldAny(text, authWords) || readsSecret(set, f.Path)
		sends := sendsAt(set, f.Path)
		lines := strings.Split(text, "\n")
		at := func(i int, msg string) { warns = append(warns, checks.At(f.Path, i+1, 0, msg)) }
		passed := -len(lines) // the last line a passthrough was reported at
		// Each rule runs only on lines holding its keyword.
		for i, l := range lines {
			jwt := strings.Contains(l, "jwt")
			switch {
			case jwt && jwtVerify.Re().MatchString(l) && !lex.ContainsFold(strings.Join(lines[i:min(i+4, len(lines))], " "), "audience"):
				at(i, "a JWT verified without an audience")
			case jwt && jwtDecode.Re().MatchString(l) && (lang == "js" || noVerify.Re().MatchString(l) || !strings.Contains(l, "audience")):
				at(i, "a JWT decoded without verifying it or its audience")
			case sends[i+1] && i-passed > 5 && lex.ContainsFold(strings.Join(lines[i:min(i+6, len(lines))], " "), "authorization") &&
				incomingAuth.Re().MatchString(strings.Join(lines[i:min(i+6, len(lines))], " ")):
				// one request spread over lines (a request built inside
				// the call that sends it) is one passthrough
				passed = i
				at(i, "the client's Authorization header is forwarded to another service (token passthrough)")
			case !authed && (strings.Contains(l, "0.0.0.0") || strings.Contains(l, "::") || strings.Contains(l, `":`)) && anyInterface.Re().MatchString(l):
				at(i, "bound to every interface with no authentication in the code")
			}
		}
		if lex.ContainsFold(text, "credentials") && strings.Contains(text, "*") && corsCredential.Re().MatchString(text) && corsAny.Re().MatchString(text) {
			at(indexLine(lines, corsAny), "CORS allows any origin together with credentials")
		}
		if !foldAny(text, originChecks) && (strings.Contains(text, "localhost") || strings.Contains(text, "127.0.0.1")) {
			at(0, "a local HTTP server with no Origin or Host validation (DNS rebinding)")
		}
	}
	switch {
	case !speaksHTTP:
		return checks.NotApplicable("no HTTP transport: a stdio server"), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), warns...), nil
	}
	return checks.Passed("HTTP transport: no unverified token, passthrough, open binding, unchecked origin or credentialed wildcard CORS found"), nil
}

// foldAny is containsAny with ASCII case folding (the words are lower case).
func foldAny(s string, subs []string) bool {
	for _, x := range subs {
		if lex.ContainsFold(s, x) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func indexLine(lines []string, p *lex.Pattern) int {
	for i, l := range lines {
		if p.Re().MatchString(l) {
			return i
		}
	}
	return 0
}
