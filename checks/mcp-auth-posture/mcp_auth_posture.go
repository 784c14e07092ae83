package mcpauthposture

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve"
)

// Check is mcp-auth-posture.
var Check = &checks.Check{
	ID:          "mcp-auth-posture",
	Version:     "1.0.0",
	Title:       "An HTTP server authenticates and validates its callers",
	Axis:        checks.Safety,
	Weight:      3,
	Tier:        checks.Deterministic,
	Kinds:       []resolve.Kind{resolve.KindMCP},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	httpServer     = []string{"StreamableHTTPServerTransport", "SSEServerTransport", "streamable_http_app", "sse_app", "streamable-http", `"sse"`, "StreamableHTTPHandler", "NewSSEHandler", "ListenAndServe", "uvicorn.run", ".listen("}
	authWords      = []string{"auth", "bearer", "verifytoken", "verify_token", "oauth", "apikey", "api_key", "requireauth", "passport", "jwt"}
	outgoingWords  = []string{"fetch", "axios", "got(", "requests.", "httpx.", "NewRequest"}
	originChecks   = []string{"origin", "allowedhosts", "allowed_hosts", "dnsrebinding", "trustedhost", "host header"}
	jwtVerify      = lex.Lazy(`\bjwt\.verify\s*\(`)
	jwtDecode      = lex.Lazy(`\bjwt\.decode\s*\(`)
	noVerify       = lex.Lazy(`verify_signature["']?\s*:\s*False|verify\s*=\s*False`)
	incomingAuth   = lex.Lazy(`(?i)\b(req|request|ctx|context)\b[\w.\[\]"']{0,24}headers?\b[\w.\[\]("' ]{0,12}authorization`)
	outgoingCall   = lex.Lazy(`\b(fetch|axios(\.\w+)?|got|requests\.\w+|httpx\.\w+|http\.NewRequest)\s*\(`)
	anyInterface   = lex.Lazy(`["'](0\.0\.0\.0|::|\[::\])(:\d+)?["']|["']:\d+["']`)
	corsAny        = lex.Lazy(`(?i)(origin\s*:\s*["']\*["']|allow_origins\s*=\s*\[\s*["']\*["']\s*\]|access-control-allow-origin["']\s*,\s*["']\*)`)
	corsCredential = lex.Lazy(`(?i)(credentials\s*:\s*true|allow_credentials\s*=\s*true|access-control-allow-credentials["']\s*,\s*["']true)`)
)

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
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
		authed := foldAny(text, authWords)
		lines := strings.Split(text, "\n")
		at := func(i int, msg string) { warns = append(warns, checks.At(f.Path, i+1, 0, msg)) }
		// Each rule runs only on lines holding its keyword.
		for i, l := range lines {
			jwt := strings.Contains(l, "jwt")
			switch {
			case jwt && jwtVerify.Re().MatchString(l) && !lex.ContainsFold(strings.Join(lines[i:min(i+4, len(lines))], " "), "audience"):
				at(i, "a JWT verified without an audience")
			case jwt && jwtDecode.Re().MatchString(l) && (lang == "js" || noVerify.Re().MatchString(l) || !strings.Contains(l, "audience")):
				at(i, "a JWT decoded without verifying it or its audience")
			case containsAny(l, outgoingWords) && outgoingCall.Re().MatchString(l) && lex.ContainsFold(strings.Join(lines[i:min(i+6, len(lines))], " "), "authorization") &&
				incomingAuth.Re().MatchString(strings.Join(lines[i:min(i+6, len(lines))], " ")):
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
