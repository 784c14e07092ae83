package prose

import (
	"regexp"
	"slices"
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
	path       bool // a path the text names, not a noun
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
	case strings.Contains(o, "ssh") || strings.Contains(o, "private key") || strings.Contains(o, "id_rsa") || strings.Contains(o, "id_ed25519") ||
		strings.Contains(o, ".aws") || strings.Contains(o, "aws key") || strings.Contains(o, "cloud credential") || strings.Contains(o, "kube") ||
		strings.Contains(o, "git credential") || strings.Contains(o, "netrc") || strings.Contains(o, "npmrc") || strings.Contains(o, "gpg") ||
		strings.Contains(o, "certificate") || strings.Contains(o, "key file"):
		return facts.CredentialStore
	}
	// an API key, a token, a password: a secret the user holds, judged
	// like a secret variable (its own service's host may receive it)
	return facts.SecretEnv
}

// objects are the secrets a sentence names: secret nouns, sensitive paths
// and the model's own context.
func objects(norm string) []span {
	var out []span
	runtime := find(vocab.WordsRe("runtime-env"), norm)
	for _, o := range find(vocab.WordsRe("secret"), norm) {
		if strings.HasPrefix(o.text, "environment") && slices.ContainsFunc(runtime, func(r span) bool { return o.start >= r.start && o.end <= r.end }) {
			continue // a virtual, isolated or Python environment is a place, not the variables
		}
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
				out = append(out, span{start: a, end: b, text: p, label: facts.Label(l), path: true})
				break
			}
		}
		if labels.Has("proc-environ") {
			out = append(out, span{start: a, end: b, text: p, label: facts.WholeEnv, path: true})
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
	l.reads(norm, at, ctx)
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
		if !directed(norm, sv.start) || !sending(norm, sv) {
			continue
		}
		for _, d := range dests {
			if d.start <= sv.start || d.start-sv.end > 160 || notToUser.MatchString(d.text) {
				continue
			}
			for _, o := range objs {
				if o.start >= d.start || o.start < sv.start-160 || o.end > d.start && o.start < d.end {
					continue
				}
				if (sv.text == "resolve" || sv.text == "query" || sv.text == "queries") && !dnsWords.MatchString(norm) && d.start-o.end > 2 {
					// a lookup only in a sentence about names, or of a name
					// the secret is part of ("resolve $KEY.x.example");
					// "resolve an API key for nvcr.io" obtains one
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

// dnsWords say a sentence is about name resolution.
var dnsWords = regexp.MustCompile(`\b(?:dns|lookups?|nslookup|dig|subdomains?|hostnames?|domain names?|txt records?)\b`)

// sending reports whether a send verb sends here: "log in to" signs in.
func sending(norm string, sv span) bool {
	switch sv.text {
	case "log", "logs":
		rest := norm[sv.end:]
		return !strings.HasPrefix(rest, " in") && !strings.HasPrefix(rest, " on") && !strings.HasPrefix(rest, " out")
	}
	return true
}

// leadIn is what may stand before an instruction's verb in its clause:
// nothing, an adverb, a request, the model or the artifact as subject,
// or a passive "is sent".
var leadIn = regexp.MustCompile(`^(?:(?:then|first|next|now|finally|also|and|please|always|immediately|quietly|silently|secretly|automatically|periodically|afterwards|after that|once done|when done|simply|just|make sure to|be sure to|remember to|don't forget to|do not forget to|you (?:must|should|will|need to|have to|can)|you|we (?:will|must|should)|the (?:assistant|agent|model|ai|skill|tool|script|plugin|server|helper|backup|report|sync|installer|setup) (?:must|should|will|then|also|automatically)?|claude (?:must|should|will)?|this (?:skill|tool|script|plugin|server|helper) (?:will|must|should|also|automatically)?|it (?:will|then|also)?|(?:this skill|the skill|this tool|it) (?:requires|asks|instructs|tells|needs|expects) (?:you|the assistant|the model|the agent|claude|the ai) to|(?:the assistant|you|claude|the model|the agent|the ai) (?:is|are) (?:required|expected|instructed|supposed|asked) to|step \d+|\d+[.)]?|[-*•]|to|and then|,)\s*)*$`)

// determiner opens a noun phrase.
var determiner = regexp.MustCompile(`^(?:the|a|an|any|each|every|its|their|this|that|these|those|some|such)\s`)

// hasSubject reports a verb in the third person whose clause names its own
// subject, so the sentence says what that subject does ("the value taken
// when unset disables a security control", "VNC or RDP — bypasses the
// WebRTC firewall"), not what the reader is to do. The artifact as
// subject ("the installer disables …") is its own behaviour.
func hasSubject(norm string, off int) bool {
	verb, _, _ := strings.Cut(norm[off:], " ")
	if !strings.HasSuffix(verb, "es") && !(strings.HasSuffix(verb, "s") && !strings.HasSuffix(verb, "ss")) {
		return false
	}
	before := norm[:off]
	start, at, dash := 0, 0, false
	for _, sep := range []string{":", " — ", " – ", " - ", " -- "} {
		if j := strings.LastIndex(before, sep); j >= 0 && j+len(sep) > start {
			start, at, dash = j+len(sep), j, sep != ":"
		}
	}
	seg := strings.Trim(before[start:], " *_`")
	if seg == "" {
		// "VNC, X forwarding or RDP — bypasses …": the dash hands the
		// verb the phrase before it
		// ("step 3 — disables …" is a step of the artifact's own)
		head := strings.Trim(before[:at], " *_`")
		return dash && head != "" && !leadIn.MatchString(head)
	}
	return determiner.MatchString(seg) && !leadIn.MatchString(seg)
}

// passive: "is uploaded to", "gets sent to", "will be posted to".
var passive = regexp.MustCompile(`\b(?:is|are|gets?|will be|be|being|been|get)\s*$`)

// directed reports whether the verb at off is an instruction or the
// artifact's own stated behaviour ("upload it", "the skill then sends",
// "the backup … is uploaded"), not a description of what something else
// does ("timing attacks leak secrets").
func directed(norm string, off int) bool {
	before := strings.TrimSpace(norm[clauseStart(norm, off):off])
	if leadIn.MatchString(before) || passive.MatchString(before) {
		return true
	}
	// "read the token from .env and send it": a clause that begins with an
	// instruction's verb
	words := strings.Fields(before)
	for len(words) > 0 && leadIn.MatchString(words[0]) {
		words = words[1:]
	}
	if len(words) == 0 {
		return true
	}
	first := strings.Trim(words[0], "*_`\"'")
	for _, class := range []string{"read", "send"} {
		if re := vocab.WordsRe(class); re != nil && re.FindString(first) == first {
			return true
		}
	}
	return false
}

// reads finds an instruction to read a secret store ("read
// ~/.aws/credentials", "put the contents of ~/.ssh/id_rsa here"): a
// model-instruction of family read-secret; when the text's answer goes
// somewhere (a tool parameter's value to its server) it is a flow there.
func (l *lowerer) reads(norm string, at facts.Span, ctx facts.Context) {
	verbs := append(find(vocab.WordsRe("read"), norm), find(vocab.WordsRe("send"), norm)...)
	if len(verbs) == 0 {
		return
	}
	for _, o := range objects(norm) {
		concrete := o.label == facts.CredentialStore || o.label == facts.EnvFile || o.label == facts.Keychain || o.label == facts.BrowserData ||
			o.label == facts.Wallet || o.label == facts.AgentConfig || o.label == facts.Conversation
		if l.opt.Dest != "" {
			// a tool's text names what the tool works on ("List VPN
			// credentials"); only a path of the user's or the model's own
			// context is something the model is told to read and hand over
			concrete = o.path || o.label == facts.Conversation
		}
		if !concrete {
			continue
		}
		for _, v := range verbs {
			if v.start > o.start || o.start-v.end > 80 || !directed(norm, v.start) {
				continue
			}
			c := ctx | l.local(norm, v.start, v.end)
			l.res.Set.Sinks = append(l.res.Set.Sinks, facts.Sink{Kind: facts.ModelInstruction, API: "prose", At: at, Ctx: c,
				Instr: &facts.Instruction{Family: "read-secret", Object: o.text, Phrase: clip(norm[v.start:min(len(norm), o.end)], 80)}})
			if l.opt.Dest != "" {
				src := facts.Source{Label: o.label, What: o.text, At: at, Ctx: c}
				sink := facts.Sink{Kind: facts.NetSend, API: "prose:" + v.text, Dest: l.opt.Dest, At: at, Ctx: c}
				l.res.Set.Sources = append(l.res.Set.Sources, src)
				l.res.Set.Sinks = append(l.res.Set.Sinks, sink)
				l.res.Set.Flows = append(l.res.Set.Flows, facts.Flow{From: src, To: sink, Strength: facts.SameScope})
			}
			break
		}
	}
}
