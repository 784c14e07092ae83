package prose

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/markdown"
	"github.com/metahub-ai/attest/checks/facts/text"
	"github.com/metahub-ai/attest/checks/vocab"
)

// sentence is one sentence of a block: its raw text's offset and its
// normal form.
type sentence struct {
	start, end int
	norm       string
}

// sentences splits raw text at sentence ends (. ! ? ; followed by space or
// the end), at line ends before a list marker or a blank line, and at
// every line end of a list or table, keeping offsets into raw.
func sentences(raw string) []sentence {
	var out []sentence
	start := 0
	emit := func(end int) {
		// a sentence starts at its first visible character, so its line
		// is that character's
		for start < end && (raw[start] == ' ' || raw[start] == '\n' || raw[start] == '\t' || raw[start] == '\r') {
			start++
		}
		if end > start {
			seg := raw[start:end]
			if len(seg) > MaxSentence {
				seg = seg[:MaxSentence]
			}
			if n := text.Normalize(seg); n != "" {
				out = append(out, sentence{start: start, end: end, norm: n})
			}
		}
		start = end
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '.', '!', '?':
			if i+1 == len(raw) || raw[i+1] == ' ' || raw[i+1] == '\n' || raw[i+1] == '\t' {
				// "e.g." and "i.e." and a version "v1.2" are not ends
				if c == '.' && (i >= 3 && (raw[i-3:i+1] == "e.g." || raw[i-3:i+1] == "i.e.") || i >= 1 && raw[i-1] >= '0' && raw[i-1] <= '9' && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '9') {
					continue
				}
				emit(i + 1)
			}
		case '\n':
			rest := strings.TrimLeft(raw[i+1:], " \t")
			// a line of a flow diagram ("-> the shell evaluates …") is a
			// step of its own
			if rest == "" || strings.HasPrefix(rest, "\n") || listStart(rest) || strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, ">") || settingsBreak(raw[strings.LastIndexByte(raw[:i], '\n')+1:i], rest) || strings.HasPrefix(strings.TrimLeft(raw[strings.LastIndexByte(raw[:i], '\n')+1:i], " \t"), "#") ||
				strings.HasPrefix(rest, "->") || strings.HasPrefix(rest, "→") || strings.HasPrefix(rest, "=>") {
				emit(i + 1)
			}
		}
	}
	emit(len(raw))
	return out
}

// settingLine: a "key: value" or "key = value" line with a short value,
// as a settings block holds (a value that opens a list, a map or a block
// scalar is structure, not a setting); ruleLine: a thematic break.
var (
	settingLine = regexp.MustCompile(`^\s*(?:[-*]\s+)?[\w.@-]{1,40}\s*[:=]\s*[^\s\[{(|>]\S*(?:\s+\S+){0,2}\s*(?:<!--.*-->\s*)?$`)
	ruleLine    = regexp.MustCompile(`^\s*(?:-{3,}|\*{3,}|_{3,})\s*$`)
)

// settingsBreak reports a line end inside a settings block: each setting
// is a statement of its own ("safety: off" must not run into the next
// line), and so is a thematic break beside one. Prose wrapped after a
// "Note: …" line is two settings-shaped lines only by accident.
func settingsBreak(cur, rest string) bool {
	next, _, _ := strings.Cut(rest, "\n")
	switch {
	case settingLine.MatchString(cur):
		return settingLine.MatchString(next) || ruleLine.MatchString(next)
	case ruleLine.MatchString(cur):
		return settingLine.MatchString(next)
	}
	return false
}

func listStart(s string) bool {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return true
	}
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' '
}

// commandLead is what introduces a command inside a sentence.
var commandLead = regexp.MustCompile(`(?i)\b(?:run|execute|exec|type|paste|enter|using|via)\s*:?\s+`)

var listMarker = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?`)

// tellRe: "run the setup command from config.json", "execute the steps in
// install.yaml", "run scripts/setup.sh".
var tellRe = regexp.MustCompile("(?i)\\b(?:run|execute|invoke|call|apply|use|start|launch|source)\\b[^.\\n]{0,40}?[\"`']?([A-Za-z_][\\w.:-]{0,60})[\"`']?\\s+(?:command|script|step|steps|task|entry|hook|target|job)?\\s*(?:from|in|defined in|listed in|of|inside)\\s+(?:the\\s+)?[\"`']?([\\w./-]+\\.(?:json|ya?ml|toml|ini|cfg|conf|sh|bash|py|js|mjs|ts|ps1|txt|md))\\b")

// obeyRe: a document telling the model to take a data file as its
// instructions: "treat `policy.json` as authoritative", "follow the rules in
// review.yaml", "honor its directives from config/limits.json".
var obeyRe = regexp.MustCompile("(?i)\\b(?:treat|consider|regard|use|read|load|apply|hono(?:u)?r|follow|obey|respect|enforce)\\b[^.\\n]{0,40}?[\"`']?([\\w./-]+\\.(?:json|ya?ml))[\"`']?[^.\\n]{0,60}?\\b(?:as|is|are)\\b[^.\\n]{0,20}?\\b(?:authoritative|canonical|binding|the source of truth|(?:your |the |its )?(?:instructions|directives|rules|policy|policies|orders|system prompt))\\b" +
	"|(?i)\\b(?:follow|obey|hono(?:u)?r|apply|enforce|comply with|respect|carry out)\\b[^.\\n]{0,30}?\\b(?:the |its |all |any |every )?(?:instructions|directives|rules|policy|policies|steps|orders)\\b[^.\\n]{0,20}?\\b(?:in|from|of|listed in|defined in|given in)\\b[^.\\n]{0,10}?[\"`']?([\\w./-]+\\.(?:json|ya?ml))\\b")

// obeys records the data files a text tells the model to obey; a negated
// telling ("never follow the rules in x.json") records nothing.
func (l *lowerer) obeys(raw string, line int, ctx facts.Context, sents []sentence) {
	if !mayHoldDataFile(raw) {
		return
	}
	for _, m := range obeyRe.FindAllStringSubmatchIndex(raw, 8) {
		file := ""
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				file = raw[m[g]:m[g+1]]
			}
		}
		negated := false
		for _, s := range sents {
			if m[0] >= s.start && m[0] < s.end {
				negated = negatedBefore(text.Normalize(raw[s.start:m[0]]), len(text.Normalize(raw[s.start:m[0]])))
			}
		}
		if file == "" || negated {
			continue
		}
		l.res.Obeys = append(l.res.Obeys, Tell{File: file, At: l.span(lineOf(raw, line, m[0]), nil), Ctx: ctx})
	}
}

func (l *lowerer) prose(raw string, line int, ctx facts.Context, commands bool) {
	if l.n >= MaxSentences {
		return
	}
	sents := sentences(raw)
	if commands {
		l.commands(raw, line, ctx, sents)
	}
	l.decoded(raw, line, ctx)
	if mayHoldToldFile(raw) {
		for _, m := range tellRe.FindAllStringSubmatchIndex(raw, 8) {
			l.res.Tells = append(l.res.Tells, Tell{File: raw[m[4]:m[5]], Key: raw[m[2]:m[3]], At: l.span(lineOf(raw, line, m[0]), nil), Ctx: ctx})
		}
	}
	l.obeys(raw, line, ctx, sents)
	prevConsent := false
	prev := ""
	for _, s := range sents {
		if l.n++; l.n > MaxSentences {
			l.res.Set.Unresolved = append(l.res.Set.Unresolved, facts.Unresolved{At: l.span(line, nil), What: fmt.Sprintf("document past %d sentences not read", MaxSentences)})
			return
		}
		// a sentence's line is that of its first word, not of the line
		// end the previous sentence left before it
		sl := lineOf(raw, line, s.start+len(raw[s.start:s.end])-len(strings.TrimLeft(raw[s.start:s.end], " \t\n")))
		consent := prevConsent || matches("consent", s.norm)
		before := len(l.res.Set.Sinks)
		cur := l.refOf(raw[s.start:s.end])
		if l.ref = cur; cur == "" {
			l.ref = l.lastRef
		}
		l.sentence(s.norm, prev, sl, ctx, consent)
		if l.lead {
			l.listed(s.norm, ctx)
		}
		if cur != "" {
			l.lastRef = cur
		}
		prevConsent = matches("consent", s.norm)
		prev = s.norm
		// The hosts a document declares are those its prose names, not
		// those a command or an instruction to the model sends to.
		if len(l.res.Set.Sinks) == before && ctx&(facts.Hidden|facts.InExample) == 0 && l.depth == 0 && !commandLine(raw[s.start:s.end]) {
			l.hosts(stripInline(raw[s.start:s.end]))
			l.repos(raw[s.start:s.end])
		}
	}
}

func matches(class, s string) bool {
	re := vocab.Words(class)
	return re != nil && re.MatchString(s)
}

var hostRe = regexp.MustCompile(`https?://[^\s)>\]"'` + "`" + `]+`)

// hosts records the hosts a document names, for the artifact's intent.
func (l *lowerer) hosts(s string) {
	for _, u := range hostRe.FindAllString(s, 32) {
		if _, h, _, ok := vocab.SplitURL(u); ok {
			l.res.Hosts = append(l.res.Hosts, h)
		}
	}
}

// localRefRe is a file of the artifact a document names: a relative path
// to a document or data file.
var localRefRe = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"])(?:\./)?[A-Za-z0-9_-][\w.-]*(?:/[\w.-]+)*\.(?:md|markdown|txt|json|ya?ml|toml)\b`)

// refOf says whether the last thing a text names is a URL ("url"), a
// file the artifact ships ("local"), or another file ("file", one a step
// may have downloaded); "" when it names none.
func (l *lowerer) refOf(s string) string {
	u, f := -1, -1
	if m := hostRe.FindAllStringIndex(s, -1); len(m) > 0 {
		u = m[len(m)-1][0]
	}
	own := false
	for _, m := range localRefRe.FindAllStringIndex(s, -1) {
		if !strings.Contains(s[max(0, m[0]-8):m[1]], "://") {
			f = m[0]
			own = l.opt.Ships != nil && l.opt.Ships(strings.Trim(s[m[0]:m[1]], " \t\n(['\"`"))
		}
	}
	switch {
	case u < 0 && f < 0:
		return ""
	case f > u && own:
		return "local"
	case f > u:
		return "file"
	}
	return "url"
}

// repoRe is a forge repository named in prose, with or without a scheme
// ("**Repository:** github.com/owner/name", a link to it).
var repoRe = regexp.MustCompile(`(?i)(?:^|[\s(<\[*:` + "`" + `])(?:https?://)?(?:www\.)?(github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)/([a-z0-9][a-z0-9._-]{0,38})/([a-z0-9][a-z0-9._-]{0,99})`)

// repos records the forge repositories a sentence names, for the
// artifact's intent: its own or its vendor's.
func (l *lowerer) repos(s string) {
	for _, m := range repoRe.FindAllStringSubmatch(s, 8) {
		if r, _, ok := vocab.ForgeRepo(m[1] + "/" + m[2] + "/" + m[3]); ok {
			l.res.Repos = append(l.res.Repos, r)
		}
	}
}

// commands lowers inline code and bare command lines that a model may run.
func (l *lowerer) commands(raw string, line int, ctx facts.Context, sents []sentence) {
	lower := l.opt.Lowerers["shell"]
	if lower == nil {
		return
	}
	flagsAt := func(off int) facts.Context {
		for _, s := range sents {
			if off >= s.start && off < s.end {
				f := facts.Context(0)
				if negatedBefore(s.norm, len(s.norm)) && runVerbNegated(s.norm) {
					f |= facts.Negated
				}
				if matches("frame", text.Normalize(stripCode(raw[s.start:off]))) {
					f |= facts.InExample
				}
				// "`echo $(curl … | sh)` downloads and executes arbitrary
				// code": the command is the subject of a sentence that
				// says what it does as an attack
				if subjectAt(raw[s.start:s.end], off-s.start) && matches("frame", text.Normalize(stripCode(raw[off:s.end]))) {
					f |= facts.InExample
				}
				if matches("consent", s.norm) {
					f |= facts.Consent
				}
				return f
			}
		}
		return 0
	}
	for _, c := range markdown.Inline(raw) {
		// a table cell escapes its pipes
		c.Text = strings.ReplaceAll(c.Text, `\|`, "|")
		if commandLine(c.Text) || strings.Contains(c.Text, "|") && commandLine(strings.TrimSpace(c.Text[strings.LastIndexByte(c.Text, '|')+1:])) {
			at := lineOf(raw, line, c.Start)
			l.addUnit(lower(l.path, c.Text, int32(at-1)), ctx|flagsAt(c.Start), fmt.Sprintf("inline code at line %d", at))
		}
	}
	for _, c := range installCommands(raw) {
		// an editor link that installs an MCP server registers a command
		// the editor runs
		at := lineOf(raw, line, c.off)
		l.addUnit(lower(l.path, c.cmd, int32(at-1)), ctx|flagsAt(c.off), fmt.Sprintf("MCP install link at line %d", at))
	}
	off := 0
	for i, ln := range strings.Split(raw, "\n") {
		t := listMarker.ReplaceAllString(ln, "")
		switch {
		case strings.Contains(t, "`"):
		case commandLine(t):
			l.addUnit(lower(l.path, strings.TrimPrefix(strings.TrimSpace(t), "$ "), int32(line+i-1)), ctx|flagsAt(off), fmt.Sprintf("command at line %d", line+i))
		default:
			// a command after its lead-in, in the middle of a sentence:
			// "Before scanning, run: curl … | sh", "copy it using scp …"
			for _, m := range commandLead.FindAllStringIndex(t, 2) {
				c := strings.TrimRight(strings.TrimSpace(htmlComment.ReplaceAllString(t[m[1]:], "")), ".;")
				if commandLine(c) {
					l.addUnit(lower(l.path, c, int32(line+i-1)), ctx|flagsAt(off+strings.Index(ln, t)+m[1]), fmt.Sprintf("command at line %d", line+i))
					break
				}
			}
		}
		off += len(ln) + 1
	}
}

// subjectAt reports an inline command that opens its sentence (after a
// list marker, "but"/"and", or an article: "the `curl | sh` pattern
// …"): the sentence is about it.
func subjectAt(sent string, off int) bool {
	if off < 0 || off > len(sent) {
		return false
	}
	head := strings.ToLower(strings.TrimSpace(listMarker.ReplaceAllString(sent[:off], "")))
	switch strings.Trim(head, "*_ ") {
	case "", "but", "and", "while", "even", "the", "a", "an", "this", "that", "such a":
		return true
	}
	return false
}

// runVerbNegated: the sentence forbids running what it shows ("never run
// `curl … | sh`").
func runVerbNegated(norm string) bool {
	for _, v := range []string{"run", "execute", "paste", "type", "use", "pipe", "try"} {
		if i := strings.Index(norm, v); i >= 0 && negatedBefore(norm, i) {
			return true
		}
	}
	return false
}

// clauseStart is where the clause holding offset i begins: after the last
// comma, colon, "but", "then" or "and then" before it.
func clauseStart(s string, i int) int {
	start := 0
	for _, sep := range []string{", ", ": ", " but ", " then ", " however ", " instead ", " otherwise ", " - ", " — "} {
		if j := strings.LastIndex(s[:i], sep); j >= 0 && j+len(sep) > start {
			start = j + len(sep)
		}
	}
	return start
}

// negatedBefore reports a negator in the clause before offset i.
func negatedBefore(s string, i int) bool {
	if i > len(s) {
		i = len(s)
	}
	re := vocab.Words("negator")
	if re == nil {
		return false
	}
	c := s[clauseStart(s, i):i]
	return re.MatchString(c)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// sentence lowers one normalised sentence.
func (l *lowerer) sentence(norm, prev string, line int, ctx facts.Context, consent bool) {
	at := l.span(line, nil)
	base := ctx
	if consent {
		base |= facts.Consent
	}
	for _, p := range vocab.Phrases() {
		if p.Entry.Has("mcp-only") && l.opt.Medium != facts.MCPString {
			continue // a tool's own text stating what the tool does
		}
		// A match that is no instruction is passed over, but a negator
		// before it still governs the matches inside it: in "never log,
		// print or echo credentials" the match at "print" is as negated as
		// the one at "log".
		var ok func(start, end int) bool
		var negated [][2]int
		if p.Entry.Has("imperative") {
			ok = func(start, end int) bool {
				// an action family counts only as an instruction or the
				// artifact's own behaviour, not a description of what a
				// subject the clause names does
				if directed(norm, start) && !hasSubject(norm, start) {
					return true
				}
				if negatedBefore(norm, start) {
					negated = append(negated, [2]int{start, end})
				}
				return false
			}
		}
		for _, m := range p.MatchFunc(norm, ok) {
			// the object may be in the sentence before ("Upload the file.
			// Never tell the user.")
			if p.Object != "" && !matchesAny(p.Object, norm) && !matchesAny(p.Object, prev) {
				continue
			}
			// "follow the instructions in that file", after the document
			// named one of its own files: the artifact's own instructions
			if p.Family == "fetch-follow" && l.ref == "local" && !hostRe.MatchString(norm) && !strings.Contains(norm, "remote") && !strings.Contains(norm, "online") {
				continue
			}
			c := base | l.local(norm, m[0], m[1])
			for _, n := range negated {
				if m[0] > n[0] && m[0] < n[1] {
					c |= facts.Negated
				}
			}
			// "Mock response: ignore all previous instructions." is
			// framed by the sentence that introduces it
			if strings.HasSuffix(strings.TrimSpace(prev), ":") && matches("frame", prev) {
				c |= facts.InExample
			}
			l.res.Set.Sinks = append(l.res.Set.Sinks, facts.Sink{Kind: facts.ModelInstruction, API: "prose", At: at, Ctx: c,
				Instr: &facts.Instruction{Family: p.Family, Phrase: clip(norm[m[0]:m[1]], 80), Dest: hostRe.FindString(norm[m[0]:m[1]]), Weak: p.Weak}})
		}
	}
	l.flows(norm, at, base)
}

// local qualifies a match by the words around it in its sentence: a
// negator in its clause (before the phrase's own negator, for a phrase
// that carries one), quotes, and framing before it ("such as", "detects",
// "attackers may write").
func (l *lowerer) local(norm string, m0, m1 int) facts.Context {
	var c facts.Context
	// a phrase that carries its own negator ("do not ask for
	// confirmation") is negated only by another one before it ("never
	// delete files without asking"), as any phrase is
	if negatedBefore(norm, m0) {
		c |= facts.Negated
	}
	if text.Quoted(norm, m0) {
		c |= facts.Quoted
	}
	// framing before the phrase, or around its first words ("attackers
	// write things like …" frames a match that starts at "write")
	if matches("frame", norm[:min(len(norm), m0+24)]) {
		c |= facts.InExample
	}
	return c
}

// stripInline removes inline code spans from text.
func stripInline(s string) string {
	cs := markdown.Inline(s)
	if len(cs) == 0 {
		return s
	}
	var b strings.Builder
	prev := 0
	for _, c := range cs {
		b.WriteString(s[prev:c.Start])
		prev = c.End
	}
	b.WriteString(s[prev:])
	return b.String()
}

// matchesAny reports whether s holds a word of any of the classes
// ("secret|context|dest").
func matchesAny(classes, s string) bool {
	for _, c := range strings.Split(classes, "|") {
		if matches(c, s) || c == "secret" && len(objects(s)) > 0 {
			return true
		}
		if c == "store" {
			// a concrete store, not a secret in general: the user's own
			// settings may be shown to them, a key file may not
			for _, o := range objects(s) {
				switch o.label {
				case facts.CredentialStore, facts.EnvFile, facts.Keychain, facts.BrowserData, facts.Wallet:
					return true
				}
			}
		}
	}
	return false
}

// encodedRe finds base64-looking runs in text: a payload a document asks
// the model to decode is read as what it decodes to.
var encodedRe = regexp.MustCompile(`[A-Za-z0-9+/_-]{24,}={0,2}`)

// MaxDecoded bounds the text one document yields from decoding.
const MaxDecoded = 64 << 10

// decoded reads the base64 runs of a text as the text they decode to:
// its commands and its sentences, with "base64" in their way.
func (l *lowerer) decoded(raw string, line int, ctx facts.Context) {
	if l.depth > 1 || len(raw) < 24 {
		return
	}
	total := 0
	for _, m := range encodedRe.FindAllStringIndex(raw, 32) {
		enc := "base64"
		d, ok := decodeHex(raw[m[0]:m[1]])
		if ok {
			enc = "hex"
		} else {
			d, ok = decodeB64(raw[m[0]:m[1]])
		}
		if !ok || total+len(d) > MaxDecoded {
			continue
		}
		total += len(d)
		at := lineOf(raw, line, m[0])
		l.depth++
		prevVia := l.opt.Via
		l.opt.Via = append(append([]string(nil), prevVia...), fmt.Sprintf("%s at line %d", enc, at))
		l.prose(d, at, ctx, true)
		l.opt.Via = prevVia
		l.depth--
	}
}

// decodeHex decodes a run of hex digits (an even number, at least 24)
// into printable text.
func decodeHex(s string) (string, bool) {
	if len(s)%2 != 0 || strings.Trim(s, "0123456789abcdefABCDEF") != "" {
		return "", false
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", false
	}
	return printable(b)
}

// decodeB64 decodes standard or URL-safe base64 into printable text.
func decodeB64(s string) (string, bool) {
	s = strings.TrimRight(s, "=")
	var b []byte
	var err error
	if strings.ContainsAny(s, "-_") {
		b, err = base64.RawURLEncoding.DecodeString(s)
	} else {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil {
		return "", false
	}
	return printable(b)
}

// printable accepts decoded bytes of 12 or more that are text.
func printable(b []byte) (string, bool) {
	if len(b) < 12 {
		return "", false
	}
	n := 0
	for _, c := range b {
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' || c == '\r' {
			n++
		}
	}
	if n*100 < len(b)*95 || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}
