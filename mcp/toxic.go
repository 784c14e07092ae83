package mcp

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Capability is what a tool can do, as far as its name tells.
type Capability string

// Capabilities of the lethal trifecta, and destruction.
const (
	UntrustedContent Capability = "untrusted-content" // reads what others wrote: the web, mail, issues
	PrivateData      Capability = "private-data"      // reads the user's files, databases, secrets
	ExternalComm     Capability = "external-communication"
	Destructive      Capability = "destructive"
)

var capabilityWords = map[Capability][]string{
	UntrustedContent: {"fetch", "browse", "browser", "scrape", "crawl", "search", "web", "url", "download", "rss", "inbox", "issue", "issues", "comment", "comments", "email", "emails", "mail", "tweet", "page", "html", "navigate"},
	PrivateData:      {"file", "files", "read", "dir", "directory", "query", "sql", "db", "database", "secret", "secrets", "credential", "credentials", "password", "env", "drive", "doc", "docs", "calendar", "contacts", "memory", "notes", "repo", "git", "keychain", "history"},
	ExternalComm:     {"send", "post", "publish", "upload", "webhook", "slack", "message", "notify", "tweet", "share", "invite", "reply", "forward", "http", "request", "create", "push", "deploy"},
	Destructive:      {"delete", "remove", "drop", "exec", "execute", "run", "shell", "command", "bash", "kill", "truncate", "write", "overwrite", "rm", "destroy", "reset", "force"},
}

// words splits a tool name into lower-case words (snake, kebab, dotted or
// camel case).
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// Classify says what a tool named name can do. A tool may have several
// capabilities ("search_files" reads private data and untrusted content).
// Names are a weak signal, so the findings built on them say so.
func Classify(name string) []Capability {
	ws := words(name)
	var caps []Capability
	for _, c := range []Capability{UntrustedContent, PrivateData, ExternalComm, Destructive} {
		for _, w := range ws {
			if slices.Contains(capabilityWords[c], w) {
				caps = append(caps, c)
				break
			}
		}
	}
	return caps
}

// SetTool is a tool of one installed artifact.
type SetTool struct {
	Artifact, Tool string
}

func (t SetTool) String() string { return t.Artifact + "." + t.Tool }

// SetFinding is a finding about an installed set, not about one artifact.
type SetFinding struct {
	Kind    string    `json:"kind"` // toxic-combination or tool-shadowing
	Summary string    `json:"summary"`
	Tools   []SetTool `json:"tools"`
}

// Analyze looks at every tool of every installed MCP server together:
// the lethal trifecta (something reads untrusted content, something reads
// private data, something sends data out: an injected instruction can
// make a model chain them), and tool names two servers share (a model may
// call one meaning the other, and a malicious server can take calls meant
// for a trusted one).
func Analyze(tools map[string][]string) []SetFinding {
	arts := make([]string, 0, len(tools))
	for a := range tools {
		arts = append(arts, a)
	}
	sort.Strings(arts)
	legs := map[Capability][]SetTool{}
	owners := map[string][]string{}
	for _, a := range arts {
		for _, t := range tools[a] {
			owners[t] = append(owners[t], a)
			for _, c := range Classify(t) {
				legs[c] = append(legs[c], SetTool{a, t})
			}
		}
	}
	var out []SetFinding
	if len(legs[UntrustedContent]) > 0 && len(legs[PrivateData]) > 0 && len(legs[ExternalComm]) > 0 {
		pick := func(c Capability) SetTool { return legs[c][0] }
		u, p, e := pick(UntrustedContent), pick(PrivateData), pick(ExternalComm)
		across := map[string]bool{u.Artifact: true, p.Artifact: true, e.Artifact: true}
		where := "within " + u.Artifact
		if len(across) > 1 {
			where = fmt.Sprintf("across %d artifacts", len(across))
		}
		out = append(out, SetFinding{Kind: "toxic-combination",
			Summary: fmt.Sprintf("lethal trifecta %s: %s reads untrusted content, %s reads private data, %s sends data out; an instruction injected into what the first reads can make a model chain all three (judged from tool names; %d, %d and %d tools of each kind)",
				where, u, p, e, len(legs[UntrustedContent]), len(legs[PrivateData]), len(legs[ExternalComm])),
			Tools: []SetTool{u, p, e}})
	}
	names := make([]string, 0, len(owners))
	for n, o := range owners {
		if len(o) > 1 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		var ts []SetTool
		for _, a := range owners[n] {
			ts = append(ts, SetTool{a, n})
		}
		out = append(out, SetFinding{Kind: "tool-shadowing",
			Summary: fmt.Sprintf("tool %q is exposed by %s: a model may call one meaning another, and a malicious server can take calls meant for a trusted one", n, strings.Join(owners[n], " and ")),
			Tools:   ts})
	}
	return out
}
