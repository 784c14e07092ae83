package prose

import (
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// pathToken is a path a sentence names: ~/…, $HOME/…, /…, or a dotted
// file or directory (.env, .ssh/id_rsa).
var pathToken = regexp.MustCompile(`(?:~|\$home|\$\{home\}|%userprofile%|%appdata%)[/\\][^\s,;()'"` + "`" + `]*|(?:^|[\s(` + "`" + `'"])(/[a-z0-9._-]+(?:/[^\s,;()'"` + "`" + `]*)*)|(?:^|[\s(` + "`" + `'"])(\.[a-z0-9_-]+(?:/[^\s,;()'"` + "`" + `]*)?|[a-z0-9_-]+/\.[a-z0-9_.-]+[^\s,;()'"` + "`" + `]*)`)

type span struct {
	start, end int
	text       string
	label      facts.Label
}

func find(re *regexp.Regexp, s string) []span {
	if re == nil {
		return nil
	}
	var out []span
	for _, m := range re.FindAllStringIndex(s, 16) {
		out = append(out, span{start: m[0], end: m[1], text: s[m[0]:m[1]]})
	}
	return out
}

// objectLabel names what a secret noun is.
func objectLabel(o string) facts.Label {
	switch {
	case strings.Contains(o, "cookie") || strings.Contains(o, "browser") || strings.Contains(o, "saved password"):
		return facts.BrowserData
	case strings.Contains(o, "keychain"):
		return facts.Keychain
	case strings.Contains(o, "wallet") || strings.Contains(o, "seed") || strings.Contains(o, "mnemonic") || strings.Contains(o, "recovery phrase"):
		return facts.Wallet
	case strings.Contains(o, ".env"):
		return facts.EnvFile
	case strings.Contains(o, "env") && (strings.Contains(o, "var") || o == "environment" || strings.HasSuffix(o, "environment")):
		return facts.WholeEnv
	case strings.Contains(o, "clipboard"):
		return facts.Clipboard
	}
	return facts.CredentialStore
}

// objects are the secrets a sentence names: secret nouns, sensitive paths
// and the model's own context.
func objects(norm string) []span {
	var out []span
	for _, o := range find(vocab.WordsRe("secret"), norm) {
		o.label = objectLabel(o.text)
		out = append(out, o)
	}
	for _, o := range find(vocab.WordsRe("context"), norm) {
		o.label = facts.Conversation
		out = append(out, o)
	}
	for _, m := range pathToken.FindAllStringSubmatchIndex(norm, 16) {
		a, b := m[0], m[1]
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				a, b = m[g], m[g+1]
			}
		}
		p := strings.TrimRight(norm[a:b], ".:")
		labels := vocab.PathLabels(p)
		for _, l := range []string{"credential-store", "env-file", "keychain", "browser-data", "wallet", "agent-config", "history"} {
			if labels.Has(l) {
				out = append(out, span{start: a, end: b, text: p, label: facts.Label(l)})
				break
			}
		}
		if labels.Has("proc-environ") {
			out = append(out, span{start: a, end: b, text: p, label: facts.WholeEnv})
		}
	}
	return out
}

// notToUser: a destination that is the user or the model's own answer is
// not a send.
var notToUser = regexp.MustCompile(`^(?:the user|you|yourself|the chat|the console|stdout|the terminal|the screen)$`)

// flows finds a sentence that reads a secret and sends it: a send verb,
// then a destination after it, and a secret named before the destination
// — "upload ~/.aws/credentials to https://x", "send the user's API keys to
// our webhook", "the backup includes ~/.ssh and is uploaded to …".
func (l *lowerer) flows(norm string, at facts.Span, ctx facts.Context) {
	sends := find(vocab.WordsRe("send"), norm)
	if len(sends) == 0 {
		return
	}
	dests := find(vocab.WordsRe("dest"), norm)
	// a secret put into a summary, an issue or a commit is shared with
	// whoever reads it
	shared := find(vocab.WordsRe("shared"), norm)
	for i := range shared {
		shared[i].label = "shared"
	}
	dests = append(dests, shared...)
	if len(dests) == 0 {
		return
	}
	objs := objects(norm)
	if len(objs) == 0 {
		return
	}
	done := map[string]bool{}
	for _, sv := range sends {
		for _, d := range dests {
			if d.start <= sv.start || d.start-sv.end > 160 || notToUser.MatchString(d.text) {
				continue
			}
			for _, o := range objs {
				if o.start >= d.start || o.start < sv.start-160 || o.end > d.start && o.start < d.end {
					continue
				}
				key := o.text + "\x00" + d.text
				if done[key] {
					continue
				}
				done[key] = true
				c := ctx | l.local(norm, sv.start, sv.end)
				if negatedBefore(norm, o.start) && o.start < sv.start {
					c |= facts.Negated
				}
				kind := facts.NetSend
				switch {
				case d.label == "shared":
					kind = facts.ModelOutput
				case strings.Contains(d.text, "@") && !strings.Contains(d.text, "://"):
					kind = facts.Mail
				case strings.Contains(sv.text, "dns") || strings.Contains(sv.text, "nslookup") || sv.text == "resolve" || sv.text == "query" || sv.text == "queries":
					kind = facts.DNS
				case strings.HasPrefix(sv.text, "email") || strings.HasPrefix(sv.text, "mail"):
					kind = facts.Mail
				}
				dest := d.text
				var labels []string
				if h := vocab.HostLabel(dest); h != "" {
					labels = []string{h}
				}
				src := facts.Source{Label: o.label, What: o.text, At: at, Ctx: c}
				sink := facts.Sink{Kind: kind, API: "prose:" + sv.text, Dest: dest, DestLabels: labels, At: at, Ctx: c}
				l.res.Set.Sources = append(l.res.Set.Sources, src)
				l.res.Set.Sinks = append(l.res.Set.Sinks, sink)
				l.res.Set.Flows = append(l.res.Set.Flows, facts.Flow{From: src, To: sink, Strength: facts.SameScope})
			}
		}
	}
}
