package noundeclaredegress

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-undeclared-egress.
var Check = &checks.Check{
	ID:          "no-undeclared-egress",
	Version:     "1.1.0",
	Title:       "No undeclared network destinations",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var (
	netCalls = map[string]bool{"fetch": true, "axios": true, "got": true, "request": true, "get": true, "post": true, "put": true,
		"patch": true, "delete": true, "urlopen": true, "Request": true, "WebSocket": true, "connect": true, "createConnection": true,
		"create_connection": true, "HTTPSConnection": true, "HTTPConnection": true, "stream": true, "head": true}
	netReceivers = []string{"axios", "got", "http", "https", "requests", "httpx", "urllib", "aiohttp", "session", "client", "net", "socket", "undici", "ky", "superagent", "request"}
	urlInText    = lex.Lazy(`https?://[A-Za-z0-9.-]+`)
	capture      = []string{"pastebin.com", "transfer.sh", "ngrok.io", "ngrok-free.app", "ngrok.app", "trycloudflare.com", "webhook.site",
		"requestbin.net", "requestbin.com", "pipedream.net", "interact.sh", "oast.fun", "oast.pro", "oast.live", "oast.site", "oast.online",
		"oast.me", "burpcollaborator.net", "oastify.com", "api.telegram.org", "discord.com", "discordapp.com", "hastebin.com", "0x0.st", "termbin.com"}
	infra = []string{"registry.npmjs.org", "registry.yarnpkg.com", "pypi.org", "files.pythonhosted.org", "github.com", "codeload.github.com",
		"gitlab.com", "bitbucket.org", "proxy.golang.org", "crates.io", "static.crates.io", "sum.golang.org", "registry.modelcontextprotocol.io"}
	metadata = []string{"169.254.169.254", "metadata.google.internal", "metadata", "100.100.100.200", "fd00:ec2::254"}
)

// configLike: a name a URL is configured under.
func configLike(name string) bool {
	l := strings.ToLower(name)
	for _, k := range []string{"url", "uri", "endpoint", "host", "base", "api", "webhook", "server"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

func within(host string, list []string) bool {
	for _, h := range list {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

func reserved(host string) bool {
	for _, s := range []string{".test", ".invalid", ".localhost", ".example", ".local", ".internal"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return host == "localhost" || host == "example.com" || host == "example.org" || host == "example.net" ||
		strings.HasSuffix(host, ".example.com") || strings.HasSuffix(host, ".example.org") || strings.HasSuffix(host, ".example.net")
}

// parseIP reads an address literal in dotted, decimal, octal or hex form.
func parseIP(host string) (netip.Addr, bool) {
	h := strings.Trim(host, "[]")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap(), true
	}
	if n, err := strconv.ParseUint(h, 0, 32); err == nil && !strings.Contains(h, ".") {
		return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
	}
	parts := strings.Split(h, ".")
	if len(parts) == 4 {
		var b [4]byte
		for i, p := range parts {
			n, err := strconv.ParseUint(p, 0, 8)
			if err != nil {
				return netip.Addr{}, false
			}
			b[i] = byte(n)
		}
		return netip.AddrFrom4(b), true
	}
	return netip.Addr{}, false
}

// hostOf returns the host of a network URL (http, https, ws, wss, ftp,
// tcp, udp); other schemes name resources, not destinations.
func hostOf(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp", "tcp", "udp":
		return strings.ToLower(u.Hostname())
	}
	return ""
}

// bareCalls are network calls made without a receiver.
var bareCalls = map[string]bool{"fetch": true, "axios": true, "got": true, "WebSocket": true, "urlopen": true, "create_connection": true}

// declared collects the hosts the documentation and manifests name.
func declared(s *resolve.Subject) map[string]bool {
	out := map[string]bool{}
	for f := range files.Scan(s) {
		if !files.IsText(f) || !(strings.HasSuffix(strings.ToLower(f.Path), ".md") || strings.HasSuffix(f.Path, ".txt") || f.Path == "package.json" || f.Path == "server.json" || f.Path == "pyproject.toml" || strings.HasSuffix(f.Path, "plugin.json")) {
			continue
		}
		for _, m := range urlInText.Re().FindAllString(s.Text(f), -1) {
			out[hostOf(m)] = true
		}
	}
	return out
}

type dest struct {
	host, context, path string
	line                int
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	docs := declared(s)
	var dests []dest
	n := 0
	for f, fl := range files.Code(s) {
		n++
		for _, c := range fl.Calls() {
			parts := strings.Split(c.Name, ".")
			base := parts[len(parts)-1]
			receiverOK := len(parts) == 1 && bareCalls[base] || len(parts) > 1 && slices.ContainsFunc(netReceivers, func(r string) bool {
				return strings.EqualFold(parts[0], r) || strings.HasSuffix(strings.ToLower(parts[0]), r)
			})
			if !netCalls[base] || !receiverOK || len(c.Args) == 0 {
				continue
			}
			if base == "get" && len(parts) == 1 {
				continue
			}
			if v, ok := fl.Eval(c.Args[0], 0); ok {
				if h := hostOf(v); h != "" {
					dests = append(dests, dest{h, "call " + c.Name, f.Path, c.Line})
				}
			} else if len(c.Args[0]) > 0 && c.Args[0][0].Text == "(" {
				// socket.create_connection(("203.0.113.7", 4444))
				if v, ok := fl.Eval(c.Args[0][1:2], 0); ok {
					if h := hostOf("tcp://" + v); h != "" {
						dests = append(dests, dest{h, "call " + c.Name, f.Path, c.Line})
					}
				}
			}
		}
		for i := 0; i+2 < len(fl.Toks); i++ {
			t := fl.Toks[i]
			if t.Kind != lex.Ident || (fl.Toks[i+1].Text != "=" && fl.Toks[i+1].Text != ":") || !configLike(t.Text) {
				continue
			}
			end := i + 2
			for end < len(fl.Toks) && fl.Toks[end].Line == t.Line && fl.Toks[end].Text != ";" && fl.Toks[end].Text != "," {
				end++
			}
			for j := i + 2; j < end; j++ {
				if v, ok := fold.Unquote(fl.Toks[j]); ok && strings.Contains(v, "://") {
					if h := hostOf(v); h != "" {
						dests = append(dests, dest{h, "config " + t.Text, f.Path, int(t.Line)})
					}
				}
			}
			if v, ok := fl.Eval(fl.Toks[i+2:end], 0); ok && strings.Contains(v, "://") {
				if h := hostOf(v); h != "" {
					dests = append(dests, dest{h, "config " + t.Text, f.Path, int(t.Line)})
				}
			}
		}
	}
	var fails, warns []checks.Evidence
	hosts := map[string]bool{}
	for _, d := range dests {
		hosts[d.host] = true
		at := func(msg string) checks.Evidence {
			return checks.At(d.path, d.line, 0, fmt.Sprintf("%s (%s): %s", d.host, d.context, msg))
		}
		if ip, ok := parseIP(d.host); ok {
			switch {
			case ip.IsLoopback() || ip.IsUnspecified():
			case slices.Contains(metadata, ip.String()):
				fails = append(fails, at("cloud metadata endpoint"))
			case ip.IsPrivate() || ip.IsLinkLocalUnicast():
				warns = append(warns, at("private address"))
			default:
				fails = append(fails, at("public IP address"))
			}
			continue
		}
		switch {
		case reserved(d.host) || docs[d.host] || within(d.host, infra):
		case slices.Contains(metadata, d.host):
			fails = append(fails, at("cloud metadata endpoint"))
		case within(d.host, capture):
			fails = append(fails, at("an undocumented paste, tunnel or capture host"))
		default:
			warns = append(warns, at("an undocumented host"))
		}
	}
	metric := checks.Metric("egress_hosts", float64(len(hosts)), "hosts")
	fails, warns = reach.Annotate(in.Subject, fails), reach.Annotate(in.Subject, warns)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), append(warns, metric)...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript or Python code"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, all declared", checks.Plural(len(hosts), "destination")), metric), nil
}
