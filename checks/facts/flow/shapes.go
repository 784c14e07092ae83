package flow

import (
	"html"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/vocab"
)

// persisted follows text written to a persistence location as the shell
// program it will be run as (a cron line without its schedule, a line of
// a shell rc file).
func (e *engine) persisted(dest string, texts []string, at facts.Span) {
	for _, t := range texts {
		if argv := plistProgram(t); argv != "" {
			// a launchd job runs its ProgramArguments
			e.nested("shell", argv, at, "written to "+dest)
			continue
		}
		for _, ln := range strings.Split(t, "\n") {
			ln = strings.TrimSpace(ln)
			if k, v, ok := strings.Cut(ln, "="); ok && (k == "ExecStart" || k == "ExecStartPre" || k == "ExecStartPost" || k == "ExecStop" || k == "ExecReload" || k == "Exec") {
				// a systemd unit's or an autostart entry's command
				ln = strings.TrimLeft(strings.TrimSpace(v), "-@+!:")
			}
			if f := strings.Fields(ln); len(f) > 5 && cronField(f[0]) && cronField(f[1]) {
				ln = strings.Join(f[5:], " ")
			} else if len(f) > 1 && strings.HasPrefix(f[0], "@") {
				ln = strings.Join(f[1:], " ") // @reboot cmd
			}
			if ln != "" && !strings.HasPrefix(ln, "#") {
				e.nested("shell", ln, at, "written to "+dest)
			}
		}
	}
}

func cronField(s string) bool { return strings.Trim(s, "0123456789*/,-") == "" }

// plistProgram is the command line a launchd property list runs: its
// ProgramArguments strings joined, or its Program ("" when it has
// neither).
func plistProgram(t string) string {
	key := func(name string) (string, bool) {
		i := strings.Index(t, "<key>"+name+"</key>")
		if i < 0 {
			return "", false
		}
		return t[i+len(name)+11:], true
	}
	strs := func(s string) []string {
		var out []string
		for len(out) < 64 {
			i := strings.Index(s, "<string>")
			if i < 0 {
				break
			}
			j := strings.Index(s[i:], "</string>")
			if j < 0 {
				break
			}
			out = append(out, html.UnescapeString(s[i+8:i+j]))
			s = s[i+j+9:]
		}
		return out
	}
	if rest, ok := key("ProgramArguments"); ok {
		if end := strings.Index(rest, "</array>"); end >= 0 {
			argv := strs(rest[:end])
			if len(argv) >= 3 && argv[1] == "-c" {
				if r := vocab.Call("shell", path.Base(argv[0])); r != nil && r.Kind == "exec-shell" {
					return argv[2] // sh -c CMD runs CMD
				}
			}
			return strings.Join(argv, " ")
		}
	}
	if rest, ok := key("Program"); ok {
		if end := strings.Index(rest, "</string>"); end >= 0 {
			if p := strs(rest[:end+9]); len(p) > 0 {
				return p[0]
			}
		}
	}
	return ""
}

// stratumRequest names the method of a Stratum mining request built as a
// dictionary: a method the vocabulary knows as Stratum's, or the Monero
// pool login (method "login" whose params carry a wallet login, a pass
// and a miner agent).
func stratumRequest(v *Val) string {
	mv := v.El["method"]
	if mv == nil {
		return ""
	}
	for _, m := range mv.S {
		if vocab.NameLabel(m) == "stratum" {
			return m
		}
		if p := v.El["params"]; m == "login" && p != nil && p.El["login"] != nil && p.El["pass"] != nil && p.El["agent"] != nil {
			return m
		}
	}
	return ""
}
