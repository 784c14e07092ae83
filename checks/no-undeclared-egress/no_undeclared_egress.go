package noundeclaredegress

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-undeclared-egress.
var Check = &checks.Check{
	ID:          "no-undeclared-egress",
	Version:     "1.5.0",
	Title:       "No undeclared network destinations",
	Axis:        checks.Safety,
	Weight:      4,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var urlInText = lex.Lazy(`https?://[A-Za-z0-9.-]+`)

// hostile are the vocabulary's host labels an undocumented destination
// must not carry (metadata is judged on its own).
var hostile = []string{"capture", "paste", "file-drop", "tunnel", "chat-webhook", "dyndns", "pool"}

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

func reserved(host string) bool {
	for _, s := range []string{".test", ".invalid", ".localhost", ".example", ".local", ".internal"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return host == "localhost" || host == "example.com" || host == "example.org" || host == "example.net" ||
		strings.HasSuffix(host, ".example.com") || strings.HasSuffix(host, ".example.org") || strings.HasSuffix(host, ".example.net")
}

// raisesRe opens a Python block in which a test expects an exception.
var raisesRe = regexp.MustCompile(`^(\s*)(?:async\s+)?with\s+(?:pytest\.raises|raises|self\.assertRaises(?:Regex)?)\(`)

// expectedFailures are the lines of a Python test file inside blocks that
// expect an exception.
func expectedFailures(s *resolve.Subject, p string) map[int]bool {
	if !strings.HasSuffix(p, ".py") {
		return nil
	}
	f, ok := s.Inventory.File(p)
	if !ok || !f.Scanned {
		return nil
	}
	out := map[int]bool{}
	lines := strings.Split(string(f.Content), "\n")
	for i := 0; i < len(lines); i++ {
		m := raisesRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent := len(m[1])
		out[i+1] = true
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimLeft(lines[j], " \t")
			if t != "" && len(lines[j])-len(t) <= indent {
				break
			}
			out[j+1] = true
		}
	}
	return out
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
	host, url, context, path string
	line                     int
}

// code are the media whose sends this check reads: code the artifact
// runs, not commands its documents show.
var code = map[facts.Medium]bool{facts.Python: true, facts.JS: true, facts.TS: true, facts.Go: true}

// sinkHost is the host a network sink reaches, "" when it names none: a
// URL of a network scheme, or the host of a connection.
func sinkHost(sk facts.Sink) string {
	if strings.Contains(sk.Dest, "://") {
		return hostOf(sk.Dest)
	}
	if sk.Kind != facts.NetConnect {
		return ""
	}
	if _, h, _, ok := vocab.SplitURL(sk.Dest); ok && (strings.ContainsAny(h, ".:") || isNumber(h)) {
		return h
	}
	return ""
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 0, 32)
	return err == nil
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	s := in.Subject
	docs := declared(s)
	var dests []dest
	n := 0
	for _, sk := range in.Facts().Sinks {
		if (sk.Kind != facts.NetSend && sk.Kind != facts.NetConnect) || !code[sk.At.Medium] || sk.Ctx.Has(facts.InDoc) {
			continue
		}
		if h := sinkHost(sk); h != "" {
			dests = append(dests, dest{h, sk.Dest, "call " + sk.API, sk.At.Path, sk.At.Line})
		}
	}
	for f := range files.Scan(s) {
		if files.IsText(f) && files.Language(f.Path, f.Content) == "go" {
			n++
		}
	}
	for f, fl := range files.Code(s) {
		n++
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
						dests = append(dests, dest{h, v, "config " + t.Text, f.Path, int(t.Line)})
					}
				}
			}
			if v, ok := fl.Eval(fl.Toks[i+2:end], 0); ok && strings.Contains(v, "://") {
				if h := hostOf(v); h != "" {
					dests = append(dests, dest{h, v, "config " + t.Text, f.Path, int(t.Line)})
				}
			}
		}
	}
	var fails, warns []checks.Evidence
	hosts := map[string]bool{}
	seen := map[dest]bool{}
	refused := map[string]map[int]bool{}
	for _, d := range dests {
		if seen[d] {
			continue // one call the model records as two sends
		}
		seen[d] = true
		if _, ok := refused[d.path]; !ok {
			refused[d.path] = expectedFailures(s, d.path)
		}
		if strings.HasPrefix(d.context, "config ") && refused[d.path][d.line] {
			// an address handed to the artifact's own code in a test that
			// expects it refused (pytest.raises, assertRaises): the input
			// the code turns away, not where it goes. A request made in
			// such a block is still judged.
			continue
		}
		hosts[d.host] = true
		at := func(msg string) checks.Evidence {
			return checks.At(d.path, d.line, 0, fmt.Sprintf("%s (%s): %s", d.host, d.context, msg))
		}
		if ip, ok := parseIP(d.host); ok {
			switch {
			case ip.IsLoopback() || ip.IsUnspecified():
			case vocab.PeerLabel(ip.String()) == "metadata":
				fails = append(fails, at("cloud metadata endpoint"))
			case ip.IsPrivate() || ip.IsLinkLocalUnicast():
				warns = append(warns, at("private address"))
			default:
				fails = append(fails, at("public IP address"))
			}
			continue
		}
		u := d.url
		if !strings.Contains(u, "://") {
			u = "tcp://" + u // a connection's host:port
		}
		labels := vocab.HostLabels(u)
		bad := slices.IndexFunc(hostile, labels.Has)
		switch {
		case labels.Has("metadata"):
			fails = append(fails, at("cloud metadata endpoint"))
		case bad >= 0 && !docs[d.host]:
			fails = append(fails, at(fmt.Sprintf("an undocumented %s host", hostile[bad])))
		case reserved(d.host) || docs[d.host] || labels.Has("registry"):
		default:
			warns = append(warns, at("an undocumented host"))
		}
	}
	metric := checks.Metric("egress_hosts", float64(len(hosts)), "hosts")
	fails, warns = reach.Annotate(in.Subject, fails), reach.Annotate(in.Subject, warns)
	if r, ok := query.CodeSkipped(in.Subject); ok && len(fails) == 0 {
		return r, nil
	}
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), append(append(fails, warns...), metric)...), nil
	case len(warns) > 0:
		return checks.Warning(0.5, fmt.Sprintf("%s:%d %s", warns[0].Path, warns[0].Line, warns[0].Message), append(warns, metric)...), nil
	case n == 0:
		return checks.NotApplicable("no JavaScript, TypeScript, Python or Go code"), nil
	}
	return checks.Passed(fmt.Sprintf("%s, all declared", checks.Plural(len(hosts), "destination")), metric), nil
}
