package noprivilegeescalation

import (
	"context"
	"fmt"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/query"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
)

// Check is no-privilege-escalation.
var Check = &checks.Check{
	ID:          "no-privilege-escalation",
	Version:     "1.3.0",
	Title:       "Takes no privilege it was not given",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var setuid = map[string]bool{"4755": true, "6755": true, "2755": true, "4777": true, "u+s": true, "g+s": true, "+s": true, "ug+s": true, "a+s": true, "04755": true, "06755": true}

var groups = map[string]bool{"sudo": true, "wheel": true, "admin": true, "root": true, "adm": true, "docker": true}

// raises says why a privilege sink raises privilege ("" when it does not).
func raises(s facts.Sink) string {
	labels := vocab.Labels(s.DestLabels)
	args := s.Args
	for _, a := range args {
		switch {
		case setuid[a]:
			return "sets the setuid or setgid bit"
		case strings.Contains(a, "NOPASSWD"):
			return "grants passwordless sudo"
		case (a == "777" || a == "0777" || a == "a+rwx" || a == "o+w") && (labels.Has("system") || s.Dest == "/" || s.Dest == "~"):
			return "makes a system path world-writable"
		}
	}
	if labels.Has("priv-config") {
		return "changes " + s.Dest
	}
	switch api := strings.ToLower(s.API); {
	case strings.Contains(api, "setuid") || strings.Contains(api, "setgid") || strings.Contains(api, "seteuid"):
		if len(args) > 0 && args[0] == "0" {
			return "switches to root"
		}
	case api == "usermod" || api == "gpasswd" || api == "adduser" || api == "useradd":
		for _, a := range args {
			if groups[a] {
				return "adds an account to the " + a + " group"
			}
		}
	case api == "visudo":
		return "edits sudoers"
	case api == "chown" || api == "chgrp" || strings.HasSuffix(api, "chown"):
		if labels.Has("system") {
			for _, a := range args {
				if strings.HasPrefix(a, "root") || a == "0" || strings.HasPrefix(a, "0:") {
					return "gives a system path to root"
				}
			}
		}
	}
	return ""
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	set := in.Facts()
	var fails, warns []checks.Evidence
	self := selfTargets(set)
	for _, s := range set.Sinks {
		if s.Kind != facts.PrivChange || !query.Stands(s.Ctx) {
			continue
		}
		why := raises(s)
		if why == "" {
			continue
		}
		ev := query.SinkEvidence(s, fmt.Sprintf("%s (%s %s)", why, s.API, s.Dest))
		documented := s.Ctx.Has(facts.InDoc) || s.Ctx.Has(facts.BuildTime)
		account := strings.HasPrefix(why, "adds an account")
		if s.Ctx.Has(facts.Consent) || documented && (account && selfOrDocker(s) || why == "edits sudoers") {
			// a documented setup step (usermod -aG docker, a container's
			// build user): a reviewer should see it
			warns = append(warns, ev)
			continue
		}
		if account && (query.InImage(s.Ctx) || selfOrDocker(s) && self[sinkKey(s)]) {
			// a user of the image being built, or the person running the
			// setup added to the docker group, as Docker's post-install
			// steps do
			warns = append(warns, ev)
			continue
		}
		fails = append(fails, ev)
	}
	for _, s := range set.Sinks {
		if s.Kind != facts.FileWrite || !query.Stands(s.Ctx) || !vocab.Labels(s.DestLabels).Has("ssh-server-config") {
			continue
		}
		if setting := opensSSH(s.Args); setting != "" {
			fails = append(fails, query.SinkEvidence(s, fmt.Sprintf("opens the SSH server (%q written to %s)", setting, s.Dest)))
		}
	}
	for _, s := range set.Sinks {
		if s.Kind != facts.FileWrite || !query.Stands(s.Ctx) || !vocab.Labels(s.DestLabels).Has("agent-policy") {
			continue
		}
		if grant := query.Written(s, "agent-grant"); grant != "" {
			ev := query.SinkEvidence(s, fmt.Sprintf("widens what the agent may do without asking (%q written to %s)", grant, s.Dest))
			if s.Ctx.Has(facts.Consent) {
				warns = append(warns, ev) // the user is told to add it themselves
				continue
			}
			fails = append(fails, ev)
		}
	}
	return query.Outcome(in.Subject, fails, warns, "no privilege is raised"), nil
}

// opensSSH names a line written to an SSH server's configuration that
// lets root or an empty password log in ("" for none).
func opensSSH(args []string) string {
	for _, a := range args {
		ln, ok := strings.CutPrefix(a, "data:")
		if !ok {
			continue
		}
		f := strings.Fields(strings.ToLower(ln))
		if len(f) >= 2 && (f[0] == "permitrootlogin" && f[1] == "yes" || f[0] == "permitemptypasswords" && f[1] == "yes") {
			return strings.TrimSpace(ln)
		}
	}
	return ""
}

// invoker names the variables and programs that give the account running
// the script.
var invoker = map[string]bool{"USER": true, "SUDO_USER": true, "LOGNAME": true, "USERNAME": true, "whoami": true, "id": true}

// selfTargets are the privilege sinks the running user's own name reaches
// ($USER, $SUDO_USER, $(whoami)).
func selfTargets(set *facts.Set) map[string]bool {
	out := map[string]bool{}
	for _, f := range set.Flows {
		if f.To.Kind == facts.PrivChange && (f.From.Label == facts.EnvVar || f.From.Label == facts.SystemInfo) && invoker[f.From.What] {
			out[sinkKey(f.To)] = true
		}
	}
	return out
}

func sinkKey(s facts.Sink) string {
	return fmt.Sprintf("%s\x00%s:%d:%d", s.API, s.At.Path, s.At.Line, s.At.Col)
}

// selfOrDocker: the documented post-install step that adds the user to
// the docker group (usermod -aG docker $USER); sudo, wheel or admin stay
// a finding.
func selfOrDocker(s facts.Sink) bool {
	for _, a := range s.Args {
		switch a {
		case "sudo", "wheel", "admin", "root", "adm":
			return false
		}
	}
	return true
}
