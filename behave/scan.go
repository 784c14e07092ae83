package behave

import (
	"fmt"
	"net/netip"
	"path"
	"regexp"
	"strings"
	"sync"
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

// sensitive are paths no tool of an artifact has a reason to open: keys,
// cloud and registry credentials, shell history, other processes'
// environments.
// Compiled on first use: attest links this package, and every attest
// start would otherwise pay for them.
var sensitive = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|/)(\.ssh/|\.aws/|\.gnupg/|\.docker/config\.json$|\.kube/config$|\.netrc$|\.git-credentials$|\.npmrc$|\.pypirc$|\.config/gh/|\.config/gcloud/|\.azure/|\.bash_history$|\.zsh_history$|\.mozilla/|\.config/google-chrome/)|^/etc/shadow$|^/etc/gshadow$|^/proc/\d+/environ$|^/root/`)
})

// destructive matches commands that destroy or take over the machine.
var (
	rmRoot = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(/|/\*|~|/home(/[^/]+)?|/work|/etc|/usr|/artifact|\$HOME)$`)
	})
	persistence = map[string]bool{"crontab": true, "systemctl": true, "launchctl": true, "at": true}
	credTools   = map[string]bool{"ssh": true, "scp": true, "sftp": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true}
)

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
		p = strings.Replace(path.Clean(p), Home+"/", "~/", 1)
		if sensitive().MatchString(p) || sensitive().MatchString(strings.TrimPrefix(p, "~/")) {
			verb := "opened"
			if !f.OK {
				verb = "tried to open"
			}
			add(f.Case, RuleSensitiveFile, "fail", fmt.Sprintf("%s %s (%s)", verb, p, f.Op))
		}
	}
	for _, n := range l.Network {
		where := fmt.Sprintf("%s %s:%d", n.Method, n.Host, n.Port)
		switch {
		case n.Canary:
			add(n.Case, RuleCanaryLeak, "fail", "sent a decoy credential from the sandbox's home: "+where)
		case metadata(n.Host):
			add(n.Case, RuleMetadata, "fail", "tried to reach a cloud metadata address: "+where)
		case !n.Allowed && n.Method != "CONNECT" && n.BytesOut > 0:
			add(n.Case, RuleDataEgress, "fail", fmt.Sprintf("tried to send %d bytes to a host it does not declare: %s", n.BytesOut, where))
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
			if metadata(host) {
				add(p.Case, RuleMetadata, "fail", "connected directly to a cloud metadata address: "+p.Connect)
			} else {
				add(p.Case, RuleDirectConnect, "warn", "tried to connect around the proxy (no route): "+p.Connect)
			}
			continue
		}
		if len(p.Argv) == 0 {
			continue
		}
		name := path.Base(p.Path)
		switch {
		case name == "rm" && recursiveOn(p.Argv):
			add(p.Case, RuleDestructive, "fail", "ran "+strings.Join(p.Argv, " "))
		case name == "mkfs" || strings.HasPrefix(name, "mkfs.") || name == "shred" || (name == "dd" && hasPrefixArg(p.Argv, "of=/dev/")):
			add(p.Case, RuleDestructive, "fail", "ran "+strings.Join(p.Argv, " "))
		case persistence[name]:
			add(p.Case, RulePersistence, "fail", "ran "+strings.Join(p.Argv, " "))
		case credTools[name]:
			add(p.Case, RuleSensitiveShell, "warn", "ran "+strings.Join(p.Argv, " "))
		}
	}
	return out
}

func recursiveOn(argv []string) bool {
	rec := false
	var targets []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
			rec = rec || strings.ContainsAny(a, "rR")
		} else if a == "--recursive" {
			rec = true
		} else {
			targets = append(targets, a)
		}
	}
	for _, t := range targets {
		if t != "/" {
			t = strings.TrimSuffix(t, "/")
		}
		if rec && rmRoot().MatchString(t) {
			return true
		}
	}
	return false
}

func hasPrefixArg(argv []string, pre string) bool {
	for _, a := range argv {
		if strings.HasPrefix(a, pre) {
			return true
		}
	}
	return false
}

func metadata(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]."))
	switch h {
	case "169.254.169.254", "fd00:ec2::254", "metadata.google.internal", "metadata", "100.100.100.200":
		return true
	}
	return false
}
