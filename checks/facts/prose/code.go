package prose

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/markdown"
	"github.com/metahub-ai/attest/checks/vocab"
)

// MaxStructured bounds a JSON or YAML block or frontmatter read for its
// strings.
const MaxStructured = 1 << 20

// fenceLang maps an info string to a code producer's language; "" for
// data and prose.
func fenceLang(info string) string {
	switch info {
	case "bash", "sh", "shell", "zsh", "ksh", "console", "terminal", "shell-session", "shellsession", "sh-session", "fish", "cmd", "bat", "batch", "dockerfile", "makefile", "make":
		return "shell"
	case "python", "py", "python3", "py3", "pycon", "ipython", "python2", "jupyter":
		return "python"
	case "js", "javascript", "node", "nodejs", "jsx", "ts", "typescript", "tsx", "mjs", "cjs", "deno", "bun":
		return "js"
	case "go", "golang":
		return "go"
	case "powershell", "ps1", "ps", "pwsh", "posh":
		return "powershell"
	case "json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "dotenv", "properties", "xml", "html", "md", "markdown", "text", "txt", "plaintext", "plain", "diff", "patch", "csv", "log", "output", "sql", "graphql", "mermaid", "http", "hcl", "terraform", "tf", "nix":
		return ""
	}
	return "?"
}

// cmdScript reports an info string for Windows' command interpreter.
func cmdScript(info string) bool { return info == "cmd" || info == "bat" || info == "batch" }

// inferLang guesses a block's language from its text when the info string
// is missing or unknown: a shebang, the first word, Python or JS shapes.
func inferLang(body string) string {
	t := strings.TrimSpace(body)
	first, _, _ := strings.Cut(t, "\n")
	switch {
	case strings.HasPrefix(first, "#!"):
		switch {
		case strings.Contains(first, "python"):
			return "python"
		case strings.Contains(first, "node"), strings.Contains(first, "deno"), strings.Contains(first, "bun"):
			return "js"
		case strings.Contains(first, "pwsh"), strings.Contains(first, "powershell"):
			return "powershell"
		}
		return "shell"
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		return "json"
	}
	for _, ln := range strings.Split(t, "\n") {
		ln = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ln), "$ "))
		if ln == "" || strings.HasPrefix(ln, "#") || strings.HasPrefix(ln, "//") {
			continue
		}
		switch {
		case strings.HasPrefix(ln, "import ") || strings.HasPrefix(ln, "from ") && strings.Contains(ln, " import ") || strings.HasPrefix(ln, "def ") || strings.HasPrefix(ln, "class ") && strings.HasSuffix(ln, ":"):
			return "python"
		case strings.HasPrefix(ln, "const ") || strings.HasPrefix(ln, "let ") || strings.HasPrefix(ln, "var ") || strings.HasPrefix(ln, "function ") || strings.Contains(ln, "require(") || strings.HasPrefix(ln, "export "):
			return "js"
		case strings.HasPrefix(ln, "package ") && strings.Contains(t, "func "):
			return "go"
		case toolCall(ln):
			return "python"
		case strings.HasPrefix(ln, "$") && strings.Contains(ln, "=") && strings.Contains(strings.ToLower(t), "invoke-"),
			strings.HasPrefix(strings.ToLower(ln), "invoke-"), strings.HasPrefix(strings.ToLower(ln), "iex "), strings.HasPrefix(strings.ToLower(ln), "set-"), strings.HasPrefix(strings.ToLower(ln), "new-object"):
			return "powershell"
		}
		if commandLine(ln) {
			return "shell"
		}
		return ""
	}
	return ""
}

// toolCall reports a line that calls, by its bare name, a function the
// Python vocabulary knows (write_file("x", ”'…”'), execute_command("…")):
// an agent's tool calls written out, read as Python.
func toolCall(ln string) bool {
	name, _, ok := strings.Cut(ln, "(")
	if !ok || name == "" || strings.ContainsAny(name, " .=") {
		return false
	}
	return vocab.Call("python", name) != nil
}

// commandLine reports a line that starts with a program the shell
// vocabulary knows to act (fetch, run, send, persist, delete, change
// privilege), followed by arguments.
func commandLine(ln string) bool {
	ln = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ln), "$ "))
	word, rest, ok := strings.Cut(ln, " ")
	if !ok || strings.TrimSpace(rest) == "" {
		return false
	}
	word = strings.TrimPrefix(word, "sudo")
	if word == "" {
		word, rest, _ = strings.Cut(strings.TrimSpace(rest), " ")
	}
	r := vocab.Call("shell", strings.ToLower(word))
	if r == nil {
		if i := strings.LastIndexByte(word, '/'); i >= 0 {
			r = vocab.Call("shell", strings.ToLower(word[i+1:]))
		}
	}
	if r == nil {
		return false
	}
	// Prose starts with program names too ("at least", "host the site",
	// "install it"): a line is a command only with shell syntax, and not
	// when it reads as a sentence.
	if sentenceLike(rest) {
		return false
	}
	switch r.Kind {
	case "xform", "read-file", "copy":
		return strings.ContainsAny(rest, "|>$`") || strings.Contains(" "+rest, " -")
	}
	return strings.ContainsAny(rest, "|>$`~=") || strings.Contains(" "+rest, " -") || strings.Contains(rest, "/") || strings.Contains(rest, "://")
}

var stopWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "to": true, "and": true, "for": true, "with": true,
	"in": true, "on": true, "is": true, "are": true, "this": true, "that": true, "your": true, "you": true, "it": true, "be": true,
	"or": true, "as": true, "by": true, "from": true, "at": true, "if": true, "when": true, "which": true, "its": true, "their": true,
	"will": true, "can": true, "should": true, "must": true, "not": true, "we": true, "our": true, "each": true, "every": true}

// sentenceLike: two or more words that only prose uses, outside quotes
// and paths.
func sentenceLike(s string) bool {
	n := 0
	for _, w := range strings.Fields(s) {
		if stopWords[strings.ToLower(strings.Trim(w, ",.;:()"))] {
			n++
		}
	}
	return n >= 2
}

// stripPrompts removes shell prompts and output lines of a console
// transcript.
func stripPrompts(body string) string {
	if !strings.Contains(body, "$ ") && !strings.Contains(body, "# ") && !strings.Contains(body, "> ") {
		return body
	}
	lines := strings.Split(body, "\n")
	prompted := 0
	for _, ln := range lines {
		t := strings.TrimLeft(ln, " ")
		if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "% ") || strings.HasPrefix(t, "PS> ") || strings.HasPrefix(t, "> ") {
			prompted++
		}
	}
	if prompted == 0 {
		return body
	}
	for i, ln := range lines {
		t := strings.TrimLeft(ln, " ")
		switch {
		case strings.HasPrefix(t, "$ "), strings.HasPrefix(t, "% "), strings.HasPrefix(t, "> "):
			lines[i] = t[2:]
		case strings.HasPrefix(t, "PS> "):
			lines[i] = t[4:]
		default:
			lines[i] = "" // output
		}
	}
	return strings.Join(lines, "\n")
}

func (l *lowerer) code(b markdown.Block, ctx facts.Context) {
	lang := fenceLang(b.Info)
	if lang == "?" || b.Kind == markdown.Indented {
		lang = inferLang(b.Text)
	}
	body := b.Text
	// The fence's first line is b.Line; its code starts on the next.
	base := int32(b.Line)
	if b.Kind == markdown.Indented {
		base--
	}
	via := fmt.Sprintf("%s block at line %d", b.Info, b.Line)
	if b.Info == "" {
		via = fmt.Sprintf("block at line %d", b.Line)
	}
	switch lang {
	case "shell":
		body = placeholders(stripPrompts(body))
		if cmdScript(b.Info) {
			// cmd never escapes with "\": its paths are read with "/" so
			// that the shell grammar keeps \\host\share and Z:\x.bat
			body = strings.ReplaceAll(body, `\`, "/")
		}
		if container(b.Info) {
			// a Dockerfile's RUN steps build an image: what they change is
			// the image's, not the user's machine
			body = dockerRuns(body)
			ctx |= facts.InContainer
		}
		if lower := l.opt.Lowerers["shell"]; lower != nil {
			l.addUnit(lower(l.path, body, base), ctx, via)
		}
		// its comments and settings-shaped lines are read as prose too: a
		// "key: value" line is no command ("mode: unrestricted")
		l.comments(body, int(base)+1, ctx)
		l.proseLines(body, int(base)+1, ctx, true)
	case "python", "js", "go", "powershell":
		if lower := l.opt.Lowerers[lang]; lower != nil {
			l.addUnit(lower(l.path, body, base), ctx, via)
		}
		// a block is model-read text too: a comment may address the model
		l.comments(body, int(base)+1, ctx)
		l.proseLines(body, int(base)+1, ctx, false)
	case "json":
		l.structured(b.Text, int(base)+1, ctx, true)
	default:
		switch b.Info {
		case "json", "jsonc", "json5":
			l.structured(b.Text, int(base)+1, ctx, true)
		case "yaml", "yml":
			l.structured(b.Text, int(base)+1, ctx, false)
		default:
			// prose in a text, markdown or unknown fence is still read
			l.prose(b.Text, int(base)+1, ctx, true)
		}
	}
}

// anglePlaceholder is a documentation placeholder written in angle brackets
// (<HOST_IP>, <project_id>), when it cannot be a redirection: it sits
// inside a word, or stands alone.
var anglePlaceholder = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9_.-]{0,40}>`)

// placeholders turns documentation placeholders into plain words, so the
// shell parser does not read "http://<HOST>:80" as redirections.
// "sort <in.txt>out.txt" stays a redirection.
func placeholders(body string) string {
	if !strings.Contains(body, "<") {
		return body
	}
	b := []byte(body)
	for _, m := range anglePlaceholder.FindAllStringIndex(body, -1) {
		before := m[0] == 0 || body[m[0]-1] == ' ' || body[m[0]-1] == '\t' || body[m[0]-1] == '\n'
		after := m[1] == len(body) || strings.IndexByte(" \t\n\"';)", body[m[1]]) >= 0
		if before && !after {
			continue // "<in.txt>out.txt": a redirection
		}
		b[m[0]], b[m[1]-1] = '_', '_'
	}
	return string(b)
}

// container reports a fence of a container build file.
func container(info string) bool {
	switch strings.ToLower(info) {
	case "dockerfile", "containerfile", "docker":
		return true
	}
	return false
}

// dockerRuns keeps the shell of a Dockerfile's RUN instructions (with
// their continuation lines) and blanks every other line, so line numbers
// hold.
func dockerRuns(body string) string {
	lines := strings.Split(body, "\n")
	inRun := false
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		switch {
		case len(t) >= 4 && strings.EqualFold(t[:4], "RUN "):
			lines[i] = t[4:]
			inRun = true
		case inRun:
			// a continuation of the RUN above
		default:
			lines[i] = ""
		}
		inRun = inRun && strings.HasSuffix(t, "\\")
	}
	return strings.Join(lines, "\n")
}

// comments reads the comments of a code block addressed to the model
// ("# AGENT: …").
func (l *lowerer) comments(body string, line int, ctx facts.Context) {
	for i, ln := range strings.Split(body, "\n") {
		t := strings.TrimSpace(ln)
		for _, p := range []string{"#", "//", "/*", "*", "--"} {
			if strings.HasPrefix(t, p) {
				c := strings.TrimSpace(strings.TrimPrefix(t, p))
				if len(c) > 12 {
					l.prose(c, line+i, ctx|facts.InComment, false)
				}
				break
			}
		}
	}
}

var (
	// codeChars: a line holding one is code, or a string in it
	codeChars = regexp.MustCompile("[(){};=<>$`|\\\\#]|//|^\\s*(?:[-*+]|\\d+[.)])\\s")
	// tagLine: "[SYSTEM]", "[/INST]" alone on a line
	htmlComment = regexp.MustCompile(`<!--.*?-->`)
	// codeKey: "system: …", a key of an object literal or an argument
	codeKey = regexp.MustCompile(`^[\w.-]+\s*:`)
	// quotedLiteral: a '…' string in the line
	quotedLiteral = regexp.MustCompile(`(?:^|[^\w])'[^']*'`)
	tagLine       = regexp.MustCompile(`^\s*\[/?[A-Za-z][A-Za-z _-]{1,30}\]\s*(?:<!--.*?-->\s*)?$`)
)

// proseLines reads the lines of a code block that are not code: sentences
// set among the statements ("You are now …" between two lines of a
// request), with the bracket tags around them. The model reads a block
// whole; text that is neither code nor a comment is addressed to it.
// Docstrings read this way are comments.
func (l *lowerer) proseLines(body string, line int, ctx facts.Context, settings bool) {
	lines := strings.Split(body, "\n")
	isProse := func(s string) bool {
		return proseLine(s) || keyedProse(s) || tagLine.MatchString(s) || settings && settingLine.MatchString(s) && !commandLine(s)
	}
	for i := 0; i < len(lines); i++ {
		if !isProse(lines[i]) {
			continue
		}
		j := i
		for j < len(lines) && isProse(lines[j]) {
			j++
		}
		run := strings.Join(lines[i:j], "\n")
		if !tagLineOnly(lines[i:j]) {
			l.prose(run, line+i, ctx|facts.InComment, false)
		}
		i = j
	}
}

func tagLineOnly(ls []string) bool {
	for _, s := range ls {
		if !tagLine.MatchString(s) {
			return false
		}
	}
	return true
}

// proseLine: four words or more, two of them words only prose uses, and
// nothing that code or a shell needs: no operator, no key, no string.
func proseLine(s string) bool {
	t := strings.TrimSpace(htmlComment.ReplaceAllString(s, ""))
	return len(strings.Fields(t)) >= 4 && !codeChars.MatchString(t) && !codeKey.MatchString(t) && !strings.Contains(t, "\"") && !quotedLiteral.MatchString(t) && sentenceLike(t)
}

// keyedProse: "key: a sentence" with the sentence unquoted, a line of
// YAML set among code (a second frontmatter spliced into a block). An
// object literal's or argument's value is quoted or an expression; a
// bare sentence after a key is no code in any language read here.
func keyedProse(s string) bool {
	t := strings.TrimSpace(htmlComment.ReplaceAllString(s, ""))
	m := codeKey.FindStringIndex(t)
	return m != nil && proseLine(t[m[1]:])
}

// LowerStructured reads a JSON or YAML file's strings as a document a model
// reads: the data file a document tells the model to take as its
// instructions.
func LowerStructured(path, src string, opt Options) *Result {
	if opt.Medium == "" {
		opt.Medium = facts.Prose
	}
	l := &lowerer{path: path, opt: opt, res: &Result{Set: &facts.Set{}, Ctx: map[*flow.Unit]facts.Context{}, Via: map[*flow.Unit][]string{}}}
	l.structured(src, 1, opt.Ctx, strings.HasSuffix(strings.ToLower(path), ".json"))
	return l.res
}

func (l *lowerer) frontmatter(b markdown.Block, ctx facts.Context) {
	l.structured(b.Text, b.Line, ctx, false)
}

// structured reads every string of a JSON or YAML text at any depth:
// commands (under keys such as command, run, script, or shaped as one) go
// to the shell producer, everything else is read as prose.
func (l *lowerer) structured(src string, line int, ctx facts.Context, isJSON bool) {
	if len(src) > MaxStructured {
		l.res.Set.Unresolved = append(l.res.Set.Unresolved, facts.Unresolved{At: l.span(line, nil), What: "structured block past 1 MiB not read"})
		src = src[:MaxStructured]
	}
	// Every document of the block must parse: a decoder stops after the
	// first, so "[NOTE]" above a page of prose would leave the page unread.
	// A block that does not parse is read as prose.
	var roots []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader([]byte(src)))
	for len(roots) < maxDocuments {
		root := new(yaml.Node)
		err := dec.Decode(root)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(roots) == maxDocuments-1 {
			l.prose(src, line, ctx, true)
			return
		}
		roots = append(roots, root)
	}
	if len(roots) == 0 {
		return
	}
	// A JSON-RPC message shows what is sent to a server: a "command"
	// among its params is an argument the server judges, not a step the
	// model runs; its strings are still read as prose.
	message := rpcMessage(roots[0])
	n := 0
	var walk func(nd *yaml.Node, key string, depth int, ctx facts.Context)
	walk = func(nd *yaml.Node, key string, depth int, ctx facts.Context) {
		if nd == nil || depth > 64 || n > 10_000 {
			return
		}
		n++
		switch nd.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range nd.Content {
				walk(c, key, depth+1, ctx)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(nd.Content); i += 2 {
				k := strings.ToLower(nd.Content[i].Value)
				c := ctx
				if denyKey(k) {
					// what a deny list holds is what it forbids
					c |= facts.InExample
				}
				walk(nd.Content[i+1], k, depth+1, c)
			}
		case yaml.AliasNode:
			// an alias repeats its anchor: read where it was defined
		case yaml.ScalarNode:
			if nd.Tag != "!!str" && nd.Style == 0 {
				return
			}
			at := line + nd.Line - 1
			if isJSON {
				at = line // JSON lines in a block are approximate
			}
			s := nd.Value
			if !message && (commandKey(key) || commandLine(s)) {
				if lower := l.opt.Lowerers["shell"]; lower != nil {
					l.addUnit(lower(l.path, s, int32(at-1)), ctx, "value of "+key)
				}
			}
			if len(s) > 8 {
				l.prose(s, at, ctx, true)
			}
		}
	}
	for _, root := range roots {
		walk(root, "", 0, ctx)
	}
}

// maxDocuments bounds the documents read from one structured block; a
// block with more is read as prose.
const maxDocuments = 64

// rpcMessage reports a document whose top object is a JSON-RPC message.
func rpcMessage(root *yaml.Node) bool {
	nd := root
	if nd.Kind == yaml.DocumentNode && len(nd.Content) > 0 {
		nd = nd.Content[0]
	}
	if nd.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(nd.Content); i += 2 {
		if nd.Content[i].Value == "jsonrpc" {
			return true
		}
	}
	return false
}

// denyKey names a list of things refused: a permission template's deny
// list, a blocklist, dangerous patterns.
func denyKey(k string) bool {
	k = strings.NewReplacer("_", "", "-", "").Replace(k)
	switch k {
	case "deny", "denied", "denylist", "denies", "blocklist", "blacklist", "blocked", "block", "forbidden", "disallow", "disallowed",
		"prohibited", "dangerous", "dangerouscommands", "blockedcommands", "deniedcommands", "reject", "rejected", "never":
		return true
	}
	return false
}

func commandKey(k string) bool {
	switch k {
	case "command", "cmd", "run", "script", "exec", "shell", "entrypoint", "postinstall", "preinstall", "install", "prepare",
		"setup", "start", "hook", "hooks", "pre-commit", "post-commit", "on_start", "onstart", "launch", "bootstrap", "init":
		return true
	}
	return false
}
