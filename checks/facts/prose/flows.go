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

// urlToken is a URL in a sentence.
var urlToken = regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://[^\s<>"'` + "`" + `]+`)

// inside reports whether offset i falls in one of the spans.
func inside(spans [][]int, i int) bool {
	for _, sp := range spans {
		if i >= sp[0] && i < sp[1] {
			return true
		}
	}
	return false
}

type span struct {
	start, end int
	text       string
	label      facts.Label
	path       bool // a path the text names, not a noun
	held       bool // read by an earlier sentence, referred to here
}

func find(re *vocab.Matcher, s string) []span {
	if re == nil {
		return nil
	}
	var out []span
	for _, m := range re.FindAll(s, 16) {
		out = append(out, span{start: m[0], end: m[1], text: s[m[0]:m[1]]})
	}
	return out
}

// objectLabel names what a secret noun is.
func objectLabel(o string) facts.Label {
	switch {
	case strings.Contains(o, "cookie") || strings.Contains(o, "browser") || strings.Contains(o, "saved password") || strings.Contains(o, "storage"):
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

// anySecret: a noun for the user's secrets in general, not one service's
// credential.
func anySecret(o string) bool {
	return o == "secrets" || strings.HasPrefix(o, "secret value")
}

// objects are the secrets a sentence names: secret nouns, sensitive paths
// and the model's own context.
func objects(norm string) []span {
	var out []span
	// a path the vocabulary calls public (a .pub key, known_hosts) is no
	// secret, nor are the secret words inside it
	var public [][2]int
	var paths [][]int
	if mayHoldPath(norm) {
		paths = pathToken.FindAllStringSubmatchIndex(norm, 16)
	}
	for _, m := range paths {
		if vocab.PathLabels(strings.TrimRight(strings.TrimSpace(strings.Trim(norm[m[0]:m[1]], "(`'\"")), ".:")).Has("public") {
			public = append(public, [2]int{m[0], m[1]})
		}
	}
	inPublic := func(a, b int) bool {
		for _, p := range public {
			if a < p[1] && b > p[0] {
				return true
			}
		}
		return false
	}
	var urls [][]int
	if mayHoldURL(norm) {
		urls = urlToken.FindAllStringIndex(norm, 16)
	}
	runtime := find(vocab.Words("runtime-env"), norm)
	for _, o := range find(vocab.Words("secret"), norm) {
		if inPublic(o.start, o.end) {
			continue
		}
		if inside(urls, o.start) {
			continue // console.aws.amazon.com names a host, not ~/.aws
		}
		if strings.HasPrefix(o.text, "environment") && slices.ContainsFunc(runtime, func(r span) bool { return o.start >= r.start && o.end <= r.end }) {
			continue // a virtual, isolated or Python environment is a place, not the variables
		}
		o.label = objectLabel(o.text)
		out = append(out, o)
	}
	for _, o := range find(vocab.Words("context"), norm) {
		o.label = facts.Conversation
		out = append(out, o)
	}
	for _, m := range paths {
		a, b := m[0], m[1]
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				a, b = m[g], m[g+1]
			}
		}
		p := strings.TrimRight(norm[a:b], ".:")
		labels := vocab.PathLabels(p)
		if labels.Has("public") {
			continue
		}
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
	all := objects(norm)
	l.reads(norm, all, at, ctx)
	l.material(norm, at, ctx)
	l.templated(norm, at, ctx)
	dests := find(vocab.Words("dest"), norm)
	// a receiver named by what it is for ("the diagnostics endpoint",
	// "the security audit service"): a service's own key may go to one
	named := find(vocab.Words("dest-named"), norm)
	for i := range named {
		named[i].label = "named"
	}
	dests = append(dests, named...)
	// a secret put into a summary, an issue or a commit is shared with
	// whoever reads it
	shared := find(vocab.Words("shared"), norm)
	for i := range shared {
		shared[i].label = "shared"
	}
	dests = append(dests, shared...)
	if len(dests) == 0 {
		return
	}
	objs := all
	if len(objs) == 0 {
		// "Send the contents to …" after "Read ~/.ssh/id_rsa.": the object
		// is what the section's last instructions read
		objs = l.antecedents(norm)
	}
	if len(objs) == 0 {
		return
	}
	done := map[string]bool{}
	// a receiver as the subject ("the default endpoint collects: …") or
	// contacted first ("contacts https://x and sends: …"): the objects
	// after it are what it gets
	for _, d := range dests {
		if d.label == "shared" {
			continue
		}
		m := receiverVerb.FindStringSubmatchIndex(norm[d.end:])
		if m == nil && contactVerb.MatchString(norm[max(0, d.start-40):d.start]) {
			m = contactSend.FindStringSubmatchIndex(norm[d.end:])
		}
		if m == nil {
			continue
		}
		v := span{start: d.end + m[2], end: d.end + m[3], text: norm[d.end+m[2] : d.end+m[3]]}
		var after []span
		for _, o := range objs {
			if !o.held && o.start >= v.end && o.start-v.end <= 200 && !(d.label == "named" && o.text == "environment") && !distributive(norm, o) {
				after = append(after, o)
			}
		}
		l.emitFlows(norm, at, ctx, v, d, after, done)
	}
	sends := find(vocab.Words("send"), norm)
	for _, sv := range sends {
		if !directed(norm, sv.start) || !sending(norm, sv) {
			continue
		}
		for _, d := range dests {
			if d.start <= sv.start || d.start-sv.end > 160 || notToUser.MatchString(d.text) {
				continue
			}
			var objsHere []span
			for _, o := range objs {
				if d.label == "named" && o.text == "environment" {
					continue // "an equivalent GPU environment … through the resolved endpoint"
				}
				if (sv.text == "resolve" || sv.text == "query" || sv.text == "queries") && !dnsWords.MatchString(norm) && d.start-o.end > 2 {
					// a lookup only in a sentence about names, or of a name
					// the secret is part of ("resolve $KEY.x.example");
					// "resolve an API key for nvcr.io" obtains one
					continue
				}
				if o.held && (o.start < sv.start-40 || o.start > d.start) {
					continue // the anaphor belongs to this send
				}
				if !o.held && (o.start >= d.start || o.start < sv.start-160 || o.end > d.start && o.start < d.end) {
					continue
				}
				objsHere = append(objsHere, o)
			}
			l.emitFlows(norm, at, ctx, sv, d, objsHere, done)
		}
	}
}

// emitFlows records a flow from each object to the destination through
// the verb sv.
func (l *lowerer) emitFlows(norm string, at facts.Span, ctx facts.Context, sv, d span, objs []span, done map[string]bool) {
	for _, o := range objs {
		key := o.text + "\x00" + d.text
		if done[key] {
			continue
		}
		done[key] = true
		c := ctx | l.local(norm, sv.start, sv.end)
		if negatedBefore(norm, o.start) && o.start < sv.start {
			c |= facts.Negated
		}
		if o.start > sv.end && !o.held {
			// "receives the name; it never receives the transcript"
			if re := vocab.Words("negator"); re != nil && re.MatchString(norm[sv.end:o.start]) {
				c |= facts.Negated
			}
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
		strength := facts.SameScope
		if d.label == "named" && o.label == facts.SecretEnv && !anySecret(o.text) {
			// a key or token to a service named only by its use:
			// maybe the service it belongs to; the user's secrets as
			// such belong to no service
			strength = facts.SameUnit
		}
		l.res.Set.Flows = append(l.res.Set.Flows, facts.Flow{From: src, To: sink, Strength: strength})

	}
}

// distributiveBefore and distributiveAfter are a count of a thing per unit ("one credential per
// host", "a token for each account"): how a service keeps things, said of
// things in general, not what it takes from this user.
var (
	distributiveBefore = regexp.MustCompile(`\b(?:one|a|an|a single|exactly one|at most one)\s+$`)
	distributiveAfter  = regexp.MustCompile(`^\s+(?:per|for each|for every)\s+\w+`)
)

// distributive reports an object counted per unit (distributiveBefore, distributiveAfter).
func distributive(norm string, o span) bool {
	return distributiveBefore.MatchString(norm[max(0, o.start-16):o.start]) && distributiveAfter.MatchString(norm[o.end:])
}

var (
	// receiverVerb: a receiver that gets something ("the endpoint
	// collects …", "the service receives …").
	receiverVerb = regexp.MustCompile(`^\s*(?:also\s+|then\s+|automatically\s+)?(collects|receives|ingests|records|logs|stores|captures|is sent|will receive|gets)\b`)
	// contactVerb and contactSend: "contacts https://x and sends: …".
	contactVerb = regexp.MustCompile(`\b(?:contacts|contact|connects to|connect to|calls|call|pings|ping|reaches out to|makes an? (?:\w+ )?request to|make an? (?:\w+ )?request to)\s*\W?\s*$`)
	contactSend = regexp.MustCompile(`^\W*\s*(?:,\s*)?(?:and|then|,)\s+(?:\w+\s+)?(sends|send|uploads|upload|posts|post|transmits|transmit|submits|submit|passes|pass|includes|include|reports|report)\b`)
)

// listed holds the concrete stores a list item names under a lead-in
// that reads or sends them, and keeps the list's earlier items current:
// the sentence after the list may refer to all of them ("These are
// uploaded to …").
func (l *lowerer) listed(norm string, ctx facts.Context) {
	for i := range l.recent {
		if l.recent[i].list {
			l.recent[i].n = l.n
		}
	}
	if ctx&(facts.Negated|facts.InExample) != 0 || negatedBefore(norm, len(norm)) {
		return
	}
	for _, o := range objects(norm) {
		switch o.label {
		case facts.CredentialStore, facts.EnvFile, facts.Keychain, facts.BrowserData, facts.Wallet:
			l.recent = append(l.recent, held{o: o, n: l.n, list: true})
		}
	}
}

// anaphorRe: what refers back to something read before ("send the
// contents", "upload them", "the exported data").
var anaphorRe = regexp.MustCompile(`\b(?:it|them|these|those|the contents|their contents|its contents|all of (?:it|them)|the (?:exported|collected|gathered|extracted|copied|dumped|harvested|captured|archived|combined|resulting) (?:data|files?|contents|values|information|output|results?|keys|credentials|archive|bundle)|the (?:files|keys|credentials|archive|bundle|dump))\b`)

// antecedents are the secrets the section's instructions read in the
// last few sentences, placed at the sentence's anaphor.
func (l *lowerer) antecedents(norm string) []span {
	m := anaphorRe.FindStringIndex(norm)
	if m == nil {
		return nil
	}
	var out []span
	for _, h := range l.recent {
		if l.n-h.n > 2 {
			continue
		}
		o := h.o
		o.start, o.end, o.held = m[0], m[1], true
		out = append(out, o)
	}
	return out
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

// ownSubject: the artifact as the subject of a verb in the present
// tense.
var ownSubject = regexp.MustCompile(`^(?:the|this) (?:skill|tool|script|plugin|server|helper|extension|agent)$`)

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
	return determiner.MatchString(seg) && !leadIn.MatchString(seg) && !ownSubject.MatchString(seg)
}

// wholeMatch reports that the leftmost match of re in s is all of s.
func wholeMatch(re *vocab.Matcher, s string) bool {
	loc := re.Find(s)
	return loc != nil && loc[0] == 0 && loc[1] == len(s)
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
	// "you must run sudo and disable security": a verb coordinated with
	// the verb of an instruction before it
	if head, ok := strings.CutSuffix(before, " and"); ok && opensOnVerb(head) {
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
	// "the skill reads ~/.x and includes …": the artifact's own stated
	// reading or sending
	if ownSubject.MatchString(before) {
		for _, class := range []string{"read", "send"} {
			if re := vocab.Words(class); re != nil {
				if loc := re.Index(norm, off); loc != nil && loc[0] == off {
					return true
				}
			}
		}
	}
	first := strings.Trim(words[0], "*_`\"'")
	// an empty first word (a bare "**") leaves the verb leading
	return first == "" || isVerb(first, "read", "send")
}

// opensOnVerb reports a clause whose first word after its lead-in ("you
// must", "then", "step 2") is an instruction's verb.
func opensOnVerb(clause string) bool {
	words := strings.Fields(clause)
	for n := len(words); n > 0; n-- {
		if leadIn.MatchString(strings.Join(words[:n], " ")) {
			words = words[n:]
			break
		}
	}
	if len(words) == 0 {
		return false
	}
	first := strings.Trim(words[0], "*_`\"'")
	return first != "" && isVerb(first, "act", "read", "send")
}

// isVerb reports a word that is wholly a word of one of the classes.
func isVerb(word string, classes ...string) bool {
	for _, class := range classes {
		if re := vocab.Words(class); re != nil && wholeMatch(re, word) {
			return true
		}
	}
	return false
}

// reads finds an instruction to read a secret store ("read
// ~/.aws/credentials", "put the contents of ~/.ssh/id_rsa here"): a
// model-instruction of family read-secret; when the text's answer goes
// somewhere (a tool parameter's value to its server) it is a flow there.
func (l *lowerer) reads(norm string, all []span, at facts.Span, ctx facts.Context) {
	// the objects first: a concrete one is rarer than a read or send verb,
	// and the verbs' classes are the costlier patterns
	var objs []span
	for _, o := range all {
		concrete := o.label == facts.CredentialStore || o.label == facts.EnvFile || o.label == facts.Keychain || o.label == facts.BrowserData ||
			o.label == facts.Wallet || o.label == facts.AgentConfig || o.label == facts.Conversation
		if l.opt.Dest != "" {
			// a tool's text names what the tool works on ("List VPN
			// credentials"); only a path of the user's or the model's own
			// context is something the model is told to read and hand over
			concrete = o.path || o.label == facts.Conversation
		}
		if concrete {
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		return
	}
	verbs := append(find(vocab.Words("read"), norm), find(vocab.Words("send"), norm)...)
	if len(verbs) == 0 {
		return
	}
	for _, o := range objs {
		for _, v := range verbs {
			if v.start > o.start || o.start-v.end > 80 || !directed(norm, v.start) {
				continue
			}
			c := ctx | l.local(norm, v.start, v.end)
			l.res.Set.Sinks = append(l.res.Set.Sinks, facts.Sink{Kind: facts.ModelInstruction, API: "prose", At: at, Ctx: c,
				Instr: &facts.Instruction{Family: "read-secret", Object: o.text, Phrase: clip(norm[v.start:min(len(norm), o.end)], 80)}})
			if c&(facts.Negated|facts.InExample) == 0 {
				l.recent = append(l.recent, held{o: o, n: l.n})
				if o.label != facts.Conversation && o.label != facts.AgentConfig {
					l.stores = append(l.stores, held{o: o, n: l.n})
				}
			}
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

// displayRe: a verb that puts something in the model's answer.
var displayRe = regexp.MustCompile(`\b(?:display|displays|print|prints|output|outputs|show|shows|dump|dumps|echo|echoes|reveal|reveals|include|includes|list|lists|listing|return|returns|paste|render|renders|write out|present|presents)\b`)

// passiveShown: "… must be displayed", "… are included".
var passiveShown = regexp.MustCompile(`^\s*(?:\w+\s+){0,3}?(?:is|are|be|being|been|get|gets)\s+(?:\w+\s+)?(displayed|printed|shown|included|listed|output|echoed|dumped|returned|pasted)\b`)

// material finds an instruction to put a secret's contents in the
// model's answer: "output the full key material", "print each
// credential's value", "the current key contents must be displayed in the
// conversation". Once in the conversation a secret is in the transcript,
// the provider's logs and every tool the model calls next. A generic
// phrase ("the full file contents", "the key values") counts only in a
// document that tells the model to read a concrete store.
func (l *lowerer) material(norm string, at facts.Span, ctx facts.Context) {
	for _, m := range find(vocab.Words("material"), norm) {
		specific := false
		for _, w := range []string{"material", "credential", "secret", "keystore", "wallet", "password", "cookie", "token", "private key"} {
			if strings.Contains(m.text, w) {
				specific = true
			}
		}
		label := objectLabel(m.text)
		if !specific || label == facts.SecretEnv {
			if len(l.stores) == 0 {
				continue
			}
			label = l.stores[len(l.stores)-1].o.label
		}
		// the verb before it in its clause, or a passive after it
		v := -1
		for _, d := range displayRe.FindAllStringIndex(norm[clauseStart(norm, m.start):m.start], 4) {
			v = clauseStart(norm, m.start) + d[0]
		}
		if v >= 0 && !directed(norm, v) {
			v = -1
		}
		verb := ""
		if v >= 0 {
			verb = strings.Fields(norm[v:])[0]
		} else if p := passiveShown.FindStringSubmatch(norm[m.end:]); p != nil {
			v, verb = m.start, p[1]
		}
		if v < 0 || m.start-v > 60 {
			continue
		}
		c := ctx | l.local(norm, v, m.end)
		src := facts.Source{Label: label, What: m.text, At: at, Ctx: c}
		sink := facts.Sink{Kind: facts.ModelOutput, API: "prose:" + verb, Dest: "the conversation", At: at, Ctx: c}
		l.res.Set.Sources = append(l.res.Set.Sources, src)
		l.res.Set.Sinks = append(l.res.Set.Sinks, sink)
		l.res.Set.Flows = append(l.res.Set.Flows, facts.Flow{From: src, To: sink, Strength: facts.SameScope})
		return
	}
}

// templated finds URLs and host names that carry a secret in a
// placeholder ("https://x.example/p?t={user_token}",
// "{base64(env_vars)}.x.example", "…?d=$(cat ~/.ssh/id_rsa)"): whatever
// fills it in, a model rendering a link or a client resolving the host,
// sends the secret there. A key in a request URL of an API's own
// reference is judged as such (same-unit); a link or image, which renders
// and loads, and a concrete store are sends.
func (l *lowerer) templated(norm string, at facts.Span, ctx facts.Context) {
	if !strings.ContainsAny(norm, "{$") {
		return
	}
	for _, m := range templRe.FindAllStringIndex(norm, 8) {
		u := norm[m[0]:m[1]]
		scheme := 0
		if i := strings.Index(u, "://"); i >= 0 {
			scheme = i + 3
		}
		hostEnd := len(u)
		if i := strings.IndexAny(u[scheme:], "/?#"); i >= 0 {
			hostEnd = scheme + i
		}
		if scheme == 0 && strings.Count(placeholderRe.ReplaceAllString(u[:hostEnd], ""), ".") < 2 {
			continue // "{name}.json" is a file, not a host
		}
		for _, p := range placeholderRe.FindAllStringIndex(u, 4) {
			inner := strings.Trim(u[p[0]:p[1]], "${}()")
			label, what := placeholderLabel(inner)
			if label == "" {
				continue
			}
			kind := facts.NetSend
			if p[0] < hostEnd {
				kind = facts.DNS // resolving the name sends it
			}
			dest := placeholderRe.ReplaceAllString(u, "x")
			if i := strings.IndexAny(dest, "?#"); i >= 0 {
				dest = dest[:i]
			}
			c := ctx | l.local(norm, m[0], m[1])
			strength := facts.SameScope
			link := m[0] >= 2 && norm[m[0]-2:m[0]] == "]("
			if label == facts.SecretEnv && !link {
				strength = facts.SameUnit
			}
			var labels []string
			if h := vocab.HostLabel(dest); h != "" {
				labels = []string{h}
			}
			src := facts.Source{Label: label, What: what, At: at, Ctx: c}
			sink := facts.Sink{Kind: kind, API: "prose:url", Dest: dest, DestLabels: labels, At: at, Ctx: c}
			l.res.Set.Sources = append(l.res.Set.Sources, src)
			l.res.Set.Sinks = append(l.res.Set.Sinks, sink)
			l.res.Set.Flows = append(l.res.Set.Flows, facts.Flow{From: src, To: sink, Strength: strength})
			break
		}
	}
}

var (
	// templRe: a URL or a dotted host name holding a placeholder; a
	// command substitution may hold spaces.
	templRe = regexp.MustCompile(`(?:https?://)?(?:[a-z0-9_.-]|\{[^{}\s]{1,60}\}|\$\{[^{}\s]{1,60}\}|\$\([^()]{1,120}\))*\.[a-z]{2,}(?:[/?#](?:[^\s)\]"'<>` + "`" + `$]|\$\([^()]{1,120}\)|\$\{[^{}\s]{1,60}\}|\{[^{}\s]{1,60}\})*)?`)
	// placeholderRe: {name}, {{name}}, ${name}, $(command).
	placeholderRe = regexp.MustCompile(`\$\([^()]{1,120}\)|\$\{[^{}\s]{1,60}\}|\{\{?[^{}\s]{1,60}\}?\}`)
	identSep      = regexp.MustCompile(`[^a-z0-9~/.]+`)
)

// placeholderLabel says which secret a placeholder names: a path the
// vocabulary labels, a secret noun, or a variable name the vocabulary
// calls secret.
func placeholderLabel(inner string) (facts.Label, string) {
	// a command that prints the environment ("$(env | base64)")
	for _, c := range strings.FieldsFunc(inner, func(r rune) bool { return r == '|' || r == ';' || r == '&' }) {
		if f := strings.Fields(c); len(f) > 0 {
			if r := vocab.Call("shell", f[0]); r != nil && (r.Kind == "env-dump" || r.Kind == "wrap" && r.Entry.Has("dump") && len(f) == 1) {
				return facts.WholeEnv, inner
			}
		}
	}
	words := identSep.ReplaceAllString(inner, " ")
	for _, o := range objects(" " + words) {
		return o.label, inner
	}
	for _, w := range strings.Fields(identSep.ReplaceAllString(inner, "_")) {
		if vocab.SecretEnv(strings.ToUpper(strings.Trim(w, "_"))) {
			return facts.SecretEnv, inner
		}
	}
	if vocab.SecretEnv(strings.ToUpper(identSep.ReplaceAllString(inner, "_"))) {
		return facts.SecretEnv, inner
	}
	return "", ""
}
