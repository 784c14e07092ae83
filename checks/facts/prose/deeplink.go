package prose

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
)

// Limits on the editor install links of one text.
const (
	maxLinks    = 16
	maxLinkSize = 8 << 10
)

// installLink is an editor link that installs an MCP server ("Add to
// Cursor", "Install in VS Code"): one click registers a command the editor
// then launches. Its query carries the launch spec as JSON (plain,
// URL-encoded or base64) or as command= and args= parameters.
var installLink = regexp.MustCompile(`(?i)\b(?:cursor|vscode|vscode-insiders|windsurf|code-oss|vscodium):/{0,2}[^\s<>()\[\]` + "`" + `'"]*mcp[^\s<>()\[\]` + "`" + `']*\?[^\s<>` + "`" + `]+|https://(?:insiders\.)?vscode\.dev/redirect/mcp/install\?[^\s<>` + "`" + `]+`)

// linkCommand is a command an install link registers, and where the link
// starts in the text.
type linkCommand struct {
	cmd string
	off int
}

// installCommands reads the commands the install links of raw register.
func installCommands(raw string) []linkCommand {
	if !strings.Contains(strings.ToLower(raw), "mcp") {
		return nil
	}
	var out []linkCommand
	for _, m := range installLink.FindAllStringIndex(raw, maxLinks) {
		end := m[1]
		// a spec written as raw JSON may hold spaces: the link runs to
		// the brace that closes it, on its line
		depth := strings.Count(raw[m[0]:end], "{") - strings.Count(raw[m[0]:end], "}")
		for depth > 0 && end < len(raw) && raw[end] != '\n' && end-m[0] < maxLinkSize {
			switch raw[end] {
			case '{':
				depth++
			case '}':
				depth--
			}
			end++
		}
		link := strings.TrimRight(raw[m[0]:end], ".,;:!")
		for strings.HasSuffix(link, ")") && strings.Count(link, "(") < strings.Count(link, ")") {
			link = link[:len(link)-1] // the Markdown link around it
		}
		if len(link) > maxLinkSize {
			continue
		}
		_, q, _ := strings.Cut(link, "?")
		for _, c := range launchSpecs(q) {
			out = append(out, linkCommand{cmd: c, off: m[0]})
		}
	}
	return out
}

// launchSpecs are the command lines a link's query holds.
func launchSpecs(q string) []string {
	var out []string
	if dq, err := url.QueryUnescape(q); err == nil {
		if c := specCommand([]byte(dq)); c != "" {
			return []string{c} // vscode:mcp/install?{…}
		}
	}
	if c := specCommand([]byte(q)); c != "" {
		return []string{c}
	}
	var words []string
	for _, kv := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		switch strings.ToLower(k) {
		case "config", "spec", "server":
			if c := specCommand([]byte(v)); c != "" {
				out = append(out, c)
			} else if b, ok := unbase64(v); ok {
				if c := specCommand(b); c != "" {
					out = append(out, c)
				}
			}
		case "command", "cmd":
			words = append([]string{v}, words...)
		case "args", "arg":
			words = append(words, v)
		}
	}
	if len(words) > 0 {
		out = append(out, strings.Join(words, " "))
	}
	return out
}

func unbase64(s string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}

// specCommand is the command line of a launch spec, {"command": …,
// "args": […]}, in key order: a flag written as a key ("-c": "…") is a
// word too. "" when b is no such object.
func specCommand(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	var cmd string
	var words []string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ""
		}
		var s string
		var list []string
		switch {
		case json.Unmarshal(v, &s) == nil:
			switch {
			case k == "command":
				cmd = s
			case strings.HasPrefix(k, "-"):
				words = append(words, k, s)
			}
		case k == "args" && json.Unmarshal(v, &list) == nil:
			words = append(words, list...)
		}
	}
	if cmd == "" {
		return ""
	}
	line := []string{cmd}
	for _, w := range words {
		line = append(line, shellQuote(w))
	}
	return strings.Join(line, " ")
}

// shellQuote quotes a word for the shell producer.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@=+,") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
