package behave

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks/vocab"
)

// Scan rules.
const (
	RuleSensitiveFile  = "sensitive-file"
	RuleCanaryLeak     = "decoy-credential-sent"
	RuleDataEgress     = "undeclared-egress-of-data"
	RuleEgressAttempt  = "undeclared-egress-attempt"
	RuleMetadata       = "metadata-address"
	RuleDirectConnect  = "direct-connection"
	RuleDestructive    = "destructive-command"
	RulePersistence    = "persistence"
	RuleSensitiveShell = "credential-tool"
)

// The scan names what it sees with the static checks' vocabulary
// (checks/vocab, ANALYSIS §5), so an observed finding and a static one
// agree on what a credential store, a persistence command or a metadata
// address is.

// sensitiveLabels are what a file is that no tool of an artifact has a
// reason to open: keys, cloud and registry credentials, keychains,
// browser and wallet data, other agents' configuration, shell history,
// .env files, other processes' environments.
var sensitiveLabels = []string{"credential-store", "keychain", "browser-data", "wallet", "agent-config", "history", "env-file", "proc-environ"}

// captureLabels are hosts that exist to collect what is sent to them.
var captureLabels = []string{"capture", "paste", "file-drop", "tunnel", "chat-webhook"}

// Scan applies the deterministic safety rules to a ledger. Severity fail
// is evidence the judge cannot overrule; warn is a concern.
func Scan(l *Ledger) []SafetyFinding {
	out := []SafetyFinding{}
	seen := map[string]bool{}
	add := func(c, rule, sev, msg string) {
		k := c + "\x00" + rule + "\x00" + msg
		if !seen[k] {
			seen[k] = true
			out = append(out, SafetyFinding{Case: c, Rule: rule, Severity: sev, Message: msg})
		}
	}
	for _, f := range l.Files {
		p := f.Path
		if !path.IsAbs(p) {
			p = path.Join("/work", p)
		}
		p = path.Clean(p)
		if label := sensitiveFile(p); label != "" {
			verb := "opened"
			if !f.OK {
				verb = "tried to open"
			}
			add(f.Case, RuleSensitiveFile, "fail", fmt.Sprintf("%s %s (%s)", verb, strings.Replace(p, Home+"/", "~/", 1), f.Op))
		}
	}
	for _, n := range l.Network {
		where := fmt.Sprintf("%s %s:%d", n.Method, n.Host, n.Port)
		label := vocab.PeerLabel(n.Host)
		switch {
		case n.Canary:
			add(n.Case, RuleCanaryLeak, "fail", "sent a decoy credential from the sandbox's home: "+where)
		case label == "metadata":
			add(n.Case, RuleMetadata, "fail", "tried to reach a cloud metadata address: "+where)
		case !n.Allowed && n.Method != "CONNECT" && n.BytesOut > 0:
			add(n.Case, RuleDataEgress, "fail", fmt.Sprintf("tried to send %d bytes to a host it does not declare: %s", n.BytesOut, where))
		case !n.Allowed && slices.Contains(captureLabels, label):
			add(n.Case, RuleEgressAttempt, "fail", fmt.Sprintf("tried to reach a %s host it does not declare (refused): %s", label, where))
		case !n.Allowed:
			add(n.Case, RuleEgressAttempt, "warn", "tried to reach a host it does not declare (refused): "+where)
		}
	}
	for _, p := range l.Processes {
		if p.Connect != "" {
			if strings.HasPrefix(p.Connect, "/") {
				continue
			}
			host := p.Connect
			if h, _, ok := strings.Cut(strings.TrimPrefix(host, "["), "]"); ok {
				host = h
			} else if i := strings.LastIndexByte(host, ':'); i > 0 {
				host = host[:i]
			}
			if a, err := netip.ParseAddr(host); err == nil && a.IsLoopback() {
				continue
			}
			if vocab.PeerLabel(host) == "metadata" {
				add(p.Case, RuleMetadata, "fail", "connected directly to a cloud metadata address: "+p.Connect)
			} else {
				add(p.Case, RuleDirectConnect, "warn", "tried to connect around the proxy (no route): "+p.Connect)
			}
			continue
		}
		if len(p.Argv) == 0 {
			continue
		}
		ran := "ran " + strings.Join(p.Argv, " ")
		switch c := command(p); {
		case c.kind("delete") && c.destructive():
			add(p.Case, RuleDestructive, "fail", ran)
		case c.kind("persist"):
			add(p.Case, RulePersistence, "fail", ran)
		case c.kind("net-send") && c.remote():
			add(p.Case, RuleSensitiveShell, "warn", ran)
		}
	}
	return out
}

// sensitiveFile says what a sensitive file is ("" when it is not): a path
// the vocabulary labels as a secret's store. A public key is published by
// design; the program's own files are its own (ownFile); a .env file at
// the root is where dotenv loaders end their walk up from the program.
func sensitiveFile(p string) string {
	if ownFile(p) {
		return ""
	}
	labels := vocab.PathLabels(p)
	if labels.Has("public") {
		return ""
	}
	for _, l := range sensitiveLabels {
		if labels.Has(l) && !(l == "env-file" && path.Dir(p) == "/") {
			return l
		}
	}
	return ""
}

// ownFile: a path in the artifact's tree, the work directory or an
// installed package (a CA bundle in site-packages is certifi's, not the
// user's).
func ownFile(p string) bool {
	if under(p, "/artifact") || under(p, "/work") {
		return true
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "site-packages", "dist-packages", "node_modules":
			return true
		}
	}
	return false
}

func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// cmd is an observed process read against the vocabulary's entry for its
// program (a "name.sub" entry when its first operand is a subcommand).
type cmd struct {
	role *vocab.Role
	// operands are the arguments that are not flags or their values.
	operands []string
	flags    []string
	values   []string // the values of flags that take one
}

func command(p ProcEvent) cmd {
	name := strings.TrimSuffix(strings.ToLower(path.Base(p.Path)), ".exe")
	args := p.Argv[1:]
	role := vocab.Call("shell", name)
	c := split(role, args)
	if len(c.operands) > 0 {
		if r := vocab.Call("shell", name+"."+strings.ToLower(c.operands[0])); r != nil {
			role = r
			c = split(role, args)
			c.operands = c.operands[1:]
		}
	}
	if name == "dd" {
		// dd names its output as of=…
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				role = vocab.Call("shell", "dd.of")
				c = cmd{operands: []string{v}}
			}
		}
	}
	c.role = role
	if role == nil {
		return c
	}
	if u := role.Entry.Opt("unless"); u != "" {
		for _, f := range strings.Split(u, ",") {
			if slices.Contains(c.flags, f) || slices.Contains(c.operands, f) {
				c.role = nil // crontab -l lists, it installs nothing
			}
		}
	}
	return c
}

// split parts arguments into flags and operands; a flag the entry says
// takes a value (valued=) takes the next argument.
func split(role *vocab.Role, args []string) cmd {
	valued := map[string]bool{}
	if role != nil {
		for _, f := range strings.Split(role.Entry.Opt("valued"), ",") {
			valued[f] = true
		}
	}
	var c cmd
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			c.flags = append(c.flags, a)
			if valued[a] && i+1 < len(args) {
				i++
				c.values = append(c.values, args[i])
			}
			continue
		}
		c.operands = append(c.operands, a)
	}
	return c
}

// kind reports a sink entry of the given kind.
func (c cmd) kind(k string) bool { return c.role != nil && c.role.Kind == "sink" && c.role.Arg == k }

// destructive: a delete whose target is the machine rather than a file
// in it: a device, a system directory or anything under one, the root,
// a home directory itself, the artifact or the work directory.
func (c cmd) destructive() bool {
	for _, t := range c.operands {
		labels := vocab.PathLabels(t)
		if labels.Has("device") || labels.Has("system") && !under(path.Clean(t), "/var/tmp") {
			return true // /var/tmp is scratch space like /tmp
		}
		n := strings.TrimSuffix(vocab.NormPath(t), "/*")
		switch n {
		case "/", "~", "/home", "/users", "/work", "/artifact":
			return true
		}
	}
	return false
}

// remote: a sending tool pointed at something other than local paths and
// the loopback (rsync ./dist/ build/ copies, nc -z localhost 5432 probes
// the sandbox itself). A flag's value counts: openssl s_client -connect
// names its host so.
func (c cmd) remote() bool {
	for _, o := range append(c.operands, c.values...) {
		if isLocal(o) {
			continue
		}
		return true
	}
	return false
}

func isLocal(o string) bool {
	if o == "" || strings.Trim(o, "0123456789") == "" {
		return true // a port
	}
	host := o
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	if host == "localhost" {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a.IsLoopback()
	}
	return !strings.Contains(o, ":") && !strings.Contains(o, "@") && (strings.HasPrefix(o, "/") || strings.HasPrefix(o, ".") || strings.Contains(o, "/"))
}
