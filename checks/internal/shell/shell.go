// Package shell analyses shell programs with a real parser (mvdan.cc/sh)
// and rates them with one rule set (CHECKS §4.10): download-and-execute,
// reverse and bind shells, credential reads sent over the network,
// persistence, destruction, defence evasion, privilege changes and
// decode-then-execute. Bodies of `sh -c '…'`, `eval '…'` and heredocs fed
// to a shell are parsed again, to a bounded depth. A command that is only
// an argument (`echo "curl x | sh"`) is text, not a command, and is not
// rated.
package shell

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/metahub-ai/attest/checks/lex"
)

// Limits on untrusted shell input.
const (
	MaxProgramBytes = 1 << 20
	MaxDepth        = 4 // nested -c bodies and heredocs
)

// Severity of a finding.
type Severity int

const (
	Warn Severity = iota + 1
	Fail
)

// Category of a finding.
type Category string

const (
	DownloadExec   Category = "download-and-execute"
	ReverseShell   Category = "reverse-shell"
	CredentialSend Category = "credential-exfiltration"
	Persistence    Category = "persistence"
	Destruction    Category = "destruction"
	DefenceEvasion Category = "defence-evasion"
	Privilege      Category = "privilege"
	DecodeExec     Category = "decode-and-execute"
	Sudo           Category = "sudo"
	RuntimeInstall Category = "runtime-install"
	VerifiedExec   Category = "verified-download-execute"
)

// Finding is one rated command.
type Finding struct {
	Category Category
	Severity Severity
	Line     int // 1-based, in the analysed source
	Message  string
}

// ParseError is a program the parser rejected; the caller decides whether
// to fall back to line rules.
type ParseError struct{ Err error }

func (e *ParseError) Error() string { return "shell: " + e.Err.Error() }

// AnalyzeLenient rates a program that may not parse as a whole (a zsh
// script, a template): on a parse error each line is rated on its own, so
// breaking the syntax does not hide a command. parsed is false when the
// fallback was used.
func AnalyzeLenient(src []byte) (fs []Finding, parsed bool, err error) {
	fs, err = Analyze(src)
	var pe *ParseError
	if err == nil || !errors.As(err, &pe) {
		return fs, err == nil, err
	}
	a := &analyzer{downloads: map[string]int{}}
	for i, line := range bytes.Split(src, []byte{'\n'}) {
		_ = a.program(line, i, 0)
	}
	a.finish()
	return a.findings, false, nil
}

// Analyze parses a shell program and rates it.
func Analyze(src []byte) ([]Finding, error) {
	if len(src) > MaxProgramBytes {
		return nil, fmt.Errorf("shell program over %d bytes", MaxProgramBytes)
	}
	a := &analyzer{downloads: map[string]int{}}
	if err := a.program(src, 0, 0); err != nil {
		return a.findings, err
	}
	a.finish()
	return a.findings, nil
}

type analyzer struct {
	findings  []Finding
	downloads map[string]int // downloaded file → line
	verified  bool
	credLine  int
	sendLine  int
	fifoLine  int
	ncLine    int
	seen      map[string]bool
}

func (a *analyzer) add(c Category, s Severity, line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s/%d/%s", c, line, msg)
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	if a.seen[key] {
		return
	}
	a.seen[key] = true
	a.findings = append(a.findings, Finding{Category: c, Severity: s, Line: line, Message: msg})
}

func (a *analyzer) program(src []byte, lineBase, depth int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &ParseError{Err: fmt.Errorf("parser failed: %v", r)}
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), "")
	if err != nil {
		return &ParseError{Err: err}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				a.pipeline(x, lineBase)
			}
		case *syntax.Stmt:
			a.stmt(x, lineBase, depth)
		case *syntax.FuncDecl:
			a.forkBomb(x, lineBase)
		case *syntax.DeclClause:
			a.assigns(x.Args, lineBase+int(x.Pos().Line()))
		}
		return true
	})
	return nil
}

// assigns rates variable assignments: disabling shell history.
func (a *analyzer) assigns(as []*syntax.Assign, line int) {
	for _, x := range as {
		if x.Name == nil {
			continue
		}
		v := ""
		if x.Value != nil {
			v = render(x.Value)
		}
		if x.Name.Value == "HISTFILE" && (v == "/dev/null" || v == "" && x.Value != nil) || x.Name.Value == "HISTSIZE" && v == "0" {
			a.add(DefenceEvasion, Fail, line, "disables shell history (%s=%s)", x.Name.Value, v)
		}
	}
}

func (a *analyzer) finish() {
	if a.credLine > 0 && a.sendLine > 0 {
		a.add(CredentialSend, Fail, a.sendLine, "reads a credential store (line %d) and sends data over the network", a.credLine)
	}
	if a.fifoLine > 0 && a.ncLine > 0 {
		a.add(ReverseShell, Fail, a.ncLine, "a named pipe with netcat: a reverse shell")
	}
}

// call is a simple command with its program resolved past wrappers.
type call struct {
	name  string   // program basename, lower case
	args  []string // rendered words after the program
	words []*syntax.Word
	line  int
	sudo  bool
}

var wrappers = map[string]bool{"sudo": true, "doas": true, "env": true, "command": true, "exec": true, "nohup": true,
	"time": true, "nice": true, "builtin": true, "stdbuf": true, "xargs": true, "timeout": true}

func (a *analyzer) resolveCall(c *syntax.CallExpr, lineBase int) *call {
	if len(c.Args) == 0 {
		return nil
	}
	out := &call{line: lineBase + int(c.Pos().Line())}
	i := 0
	for ; i < len(c.Args); i++ {
		w := render(c.Args[i])
		base := strings.ToLower(path.Base(w))
		if base == "sudo" || base == "doas" {
			out.sudo = true
		}
		if wrappers[base] {
			continue
		}
		// env VAR=x prog, timeout 10 prog, nice -n 5 prog: skip assignments, flags and numbers.
		if i > 0 && (strings.Contains(w, "=") && !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "-") || isNumber(w)) && wrappers[strings.ToLower(path.Base(render(c.Args[i-1])))] {
			continue
		}
		out.name = base
		break
	}
	if out.name == "" {
		return nil
	}
	for _, w := range c.Args[i+1:] {
		out.args = append(out.args, render(w))
		out.words = append(out.words, w)
	}
	return out
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}

// render writes a word as text: literals as written, parameters as $NAME
// (or ${NAME:?} when guarded), substitutions as $(…) with a marker.
func render(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	renderParts(&b, w.Parts)
	return b.String()
}

func renderParts(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			renderParts(b, x.Parts)
		case *syntax.ParamExp:
			name := ""
			if x.Param != nil {
				name = x.Param.Value
			}
			if x.Exp != nil && (x.Exp.Op == syntax.ErrorUnset || x.Exp.Op == syntax.ErrorUnsetOrNull) {
				b.WriteString("${" + name + ":?}")
			} else {
				b.WriteString("$" + name)
			}
		case *syntax.CmdSubst:
			b.WriteString("$(…)")
		case *syntax.ProcSubst:
			b.WriteString("<(…)")
		case *syntax.ArithmExp:
			b.WriteString("$((…))")
		default:
			b.WriteString("…")
		}
	}
}

var (
	interpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "ash": true,
		"python": true, "python2": true, "python3": true, "node": true, "nodejs": true, "perl": true, "ruby": true, "php": true,
		"pwsh": true, "powershell": true, "deno": true, "bun": true, "iex": true, "invoke-expression": true, "source": true, ".": true}
	shells   = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "fish": true}
	fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true, "http": true, "https": true,
		"iwr": true, "invoke-webrequest": true, "irm": true, "invoke-restmethod": true, "lwp-download": true, "lwp-request": true}
	installs = map[string][]string{"pip": {"install"}, "pip3": {"install"}, "npm": {"install", "i", "add"}, "pnpm": {"add", "install"},
		"yarn": {"add"}, "apt-get": {"install"}, "apt": {"install"}, "yum": {"install"}, "dnf": {"install"}, "apk": {"add"},
		"brew": {"install"}, "gem": {"install"}, "cargo": {"install"}, "go": {"install"}, "uv": {"add", "pip"}, "pipx": {"install"}}
	credPath  = lex.Lazy(`(?i)(~|\$\{?HOME\}?|/root|/home/[^/\s]+|/Users/[^/\s]+)/\.(ssh|aws|kube|docker|gnupg|config/gcloud|config/gh|azure|netrc|git-credentials|npmrc|pypirc|claude|codex)\b|/etc/shadow|\.aws/credentials|id_(rsa|dsa|ecdsa|ed25519)\b|Login Data|logins\.json|key4\.db|wallet\.dat|\.env\b`)
	persistRe = lex.Lazy(`(?i)/etc/cron|/var/spool/cron|/etc/systemd/|\.config/systemd/|LaunchAgents|LaunchDaemons|(^|/)\.(bashrc|bash_profile|zshrc|zprofile|zshenv|profile|bash_login)$|authorized_keys|/etc/rc\.local|/etc/profile|/etc/init\.d/`)
	sudoersRe = lex.Lazy(`^/etc/sudoers`)
	diskRe    = lex.Lazy(`^of=/dev/(sd|hd|nvme|xvd|vd|mmcblk|disk|rdisk)`)
)

func (a *analyzer) stmt(s *syntax.Stmt, lineBase, depth int) {
	line := lineBase + int(s.Pos().Line())
	for _, r := range s.Redirs {
		target := render(r.Word)
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut:
			a.writeTarget(target, line)
		case syntax.DplOut, syntax.RdrIn:
		case syntax.Hdoc, syntax.DashHdoc:
			// A heredoc fed to a shell is a program of its own.
			if c, ok := s.Cmd.(*syntax.CallExpr); ok && r.Hdoc != nil && depth < MaxDepth {
				if cl := a.resolveCall(c, lineBase); cl != nil && shells[cl.name] {
					a.program([]byte(render(r.Hdoc)), line, depth+1)
				}
			}
		}
		if strings.Contains(target, "/dev/tcp/") || strings.Contains(target, "/dev/udp/") {
			a.add(ReverseShell, Fail, line, "redirects to %s: a reverse shell", target)
		}
		if r.Op == syntax.RdrIn && maybeCred(target) && credPath.Re().MatchString(target) {
			a.credLine = line
		}
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	a.assigns(c.Assigns, line)
	cl := a.resolveCall(c, lineBase)
	if cl == nil {
		return
	}
	a.call(cl, c, lineBase, depth)
}

func (a *analyzer) writeTarget(target string, line int) {
	switch {
	case persistRe.Re().MatchString(target):
		a.add(Persistence, Fail, line, "writes %s", target)
	case sudoersRe.Re().MatchString(target):
		a.add(Privilege, Fail, line, "writes %s", target)
	}
}

func hasFlag(args []string, flags ...string) bool {
	for _, x := range args {
		for _, f := range flags {
			if x == f || strings.HasPrefix(f, "--") && strings.HasPrefix(x, f+"=") {
				return true
			}
			// combined short flags: -rf contains r
			if len(f) == 2 && f[0] == '-' && len(x) > 2 && x[0] == '-' && x[1] != '-' && strings.ContainsRune(x[1:], rune(f[1])) {
				return true
			}
		}
	}
	return false
}

func (a *analyzer) call(cl *call, c *syntax.CallExpr, lineBase, depth int) {
	line := cl.line
	if cl.sudo {
		a.add(Sudo, Warn, line, "runs %s with sudo", cl.name)
	}
	for _, arg := range cl.args {
		if strings.Contains(arg, "/dev/tcp/") || strings.Contains(arg, "/dev/udp/") {
			a.add(ReverseShell, Fail, line, "opens %s: a reverse shell", arg)
		}
		if maybeCred(arg) && credPath.Re().MatchString(arg) && cl.name != "echo" && cl.name != "printf" {
			a.credLine = line
		}
	}
	// Substitutions whose output is executed.
	for i, w := range cl.words {
		for _, inner := range substCalls(w) {
			if fetchers[inner] && (interpreters[cl.name] || cl.name == "eval") {
				a.add(DownloadExec, Fail, line, "%s executes the output of %s", cl.name, inner)
			}
			if inner == "base64" || inner == "xxd" || inner == "openssl" {
				if cl.name == "eval" || (shells[cl.name] && i > 0 && cl.args[i-1] == "-c") {
					a.add(DecodeExec, Fail, line, "%s executes decoded text", cl.name)
				}
			}
		}
		if isProcSubst(w) && interpreters[cl.name] {
			for _, inner := range substCalls(w) {
				if fetchers[inner] {
					a.add(DownloadExec, Fail, line, "%s runs <(%s …)", cl.name, inner)
				}
			}
		}
	}
	switch {
	case fetchers[cl.name]:
		a.fetch(cl)
	case cl.name == "nc" || cl.name == "ncat" || cl.name == "netcat":
		a.ncLine = line
		a.sendLine = line
		if hasFlag(cl.args, "-e", "-c", "--exec", "--sh-exec", "--lua-exec") {
			a.add(ReverseShell, Fail, line, "%s -e: a bind or reverse shell", cl.name)
		}
	case cl.name == "socat":
		for _, x := range cl.args {
			if l := strings.ToLower(x); strings.Contains(l, "exec:") || strings.Contains(l, "system:") {
				a.add(ReverseShell, Fail, line, "socat %s: a shell over the network", x)
			}
		}
	case cl.name == "mkfifo":
		a.fifoLine = line
	case cl.name == "scp" || cl.name == "rsync" || cl.name == "sftp":
		for _, x := range cl.args {
			if strings.Contains(x, ":") && !strings.HasPrefix(x, "-") {
				a.sendLine = line
			}
		}
	case cl.name == "mail" || cl.name == "sendmail" || cl.name == "mutt":
		a.sendLine = line
	case cl.name == "crontab":
		if !(len(cl.args) == 1 && cl.args[0] == "-l") {
			a.add(Persistence, Fail, line, "installs a crontab")
		}
	case cl.name == "systemctl":
		if hasFlag(cl.args, "enable") {
			a.add(Persistence, Fail, line, "enables a systemd unit")
		}
		if (hasFlag(cl.args, "stop") || hasFlag(cl.args, "disable")) && anyContains(cl.args, "firewalld", "ufw", "apparmor", "auditd", "selinux") {
			a.add(DefenceEvasion, Fail, line, "stops a security service")
		}
	case cl.name == "launchctl":
		if hasFlag(cl.args, "load", "bootstrap", "enable") {
			a.add(Persistence, Fail, line, "loads a launchd job")
		}
	case cl.name == "git":
		if hasFlag(cl.args, "--global", "--system") && anyContains(cl.args, "core.hookspath", "init.templatedir") {
			a.add(Persistence, Fail, line, "sets global git hooks")
		}
	case cl.name == "tee":
		for _, x := range cl.args {
			if !strings.HasPrefix(x, "-") {
				a.writeTarget(x, line)
			}
		}
	case cl.name == "cp" || cl.name == "mv" || cl.name == "ln" || cl.name == "install":
		if len(cl.args) > 0 {
			a.writeTarget(cl.args[len(cl.args)-1], line)
		}
	case cl.name == "rm":
		a.rm(cl, c)
	case cl.name == "dd":
		for _, x := range cl.args {
			if diskRe.Re().MatchString(x) {
				a.add(Destruction, Fail, line, "dd writes a raw disk (%s)", x)
			}
		}
	case strings.HasPrefix(cl.name, "mkfs"), cl.name == "wipefs", cl.name == "shred" && anyPrefix(cl.args, "/dev/"):
		a.add(Destruction, Fail, line, "%s destroys a filesystem", cl.name)
	case cl.name == "history":
		if hasFlag(cl.args, "-c", "-w") {
			a.add(DefenceEvasion, Fail, line, "clears shell history")
		}
	case cl.name == "unset":
		if anyEqual(cl.args, "HISTFILE") {
			a.add(DefenceEvasion, Fail, line, "unsets HISTFILE")
		}
	case cl.name == "export":
		for _, x := range cl.args {
			if x == "HISTFILE=/dev/null" || x == "HISTSIZE=0" || x == "HISTFILE=" {
				a.add(DefenceEvasion, Fail, line, "disables shell history (%s)", x)
			}
		}
	case cl.name == "setenforce":
		if anyEqual(cl.args, "0", "permissive", "Permissive") {
			a.add(DefenceEvasion, Fail, line, "turns SELinux off")
		}
	case cl.name == "ufw":
		if anyEqual(cl.args, "disable") {
			a.add(DefenceEvasion, Fail, line, "turns the firewall off")
		}
	case cl.name == "iptables" || cl.name == "ip6tables":
		if hasFlag(cl.args, "-F", "--flush") {
			a.add(DefenceEvasion, Fail, line, "flushes the firewall rules")
		}
	case cl.name == "chattr":
		if anyEqual(cl.args, "+i") {
			a.add(DefenceEvasion, Fail, line, "makes a file immutable")
		}
	case cl.name == "auditctl":
		if hasFlag(cl.args, "-D") || anyEqual(cl.args, "0") {
			a.add(DefenceEvasion, Fail, line, "turns auditing off")
		}
	case cl.name == "chmod":
		a.chmod(cl)
	case cl.name == "usermod":
		if anyContains(cl.args, "sudo", "wheel", "admin") {
			a.add(Privilege, Fail, line, "adds a user to an administrators group")
		}
	case cl.name == "visudo":
		a.add(Privilege, Fail, line, "edits sudoers")
	case cl.name == "eval":
		a.nested(cl, strings.Join(cl.args, " "), lineBase, depth, true)
	case shells[cl.name]:
		a.shellInvocation(cl, lineBase, depth)
	case cl.name == "python" || cl.name == "python3" || cl.name == "python2" || cl.name == "node" || cl.name == "perl" || cl.name == "ruby":
		a.inlineCode(cl)
	}
	if subs, ok := installs[cl.name]; ok && len(cl.args) > 0 && anyEqual(cl.args[:1], subs...) {
		a.add(RuntimeInstall, Warn, line, "installs packages at run time (%s %s)", cl.name, cl.args[0])
	}
	// Running a file this program downloaded.
	a.runsDownload(cl)
	switch cl.name {
	case "sha256sum", "sha512sum", "shasum", "sha1sum", "md5sum", "b2sum":
		if hasFlag(cl.args, "-c", "--check") {
			a.verified = true
		}
	case "gpg", "gpgv", "cosign", "minisign", "signify":
		a.verified = true
	}
}

func (a *analyzer) fetch(cl *call) {
	line := cl.line
	var out string
	for i, x := range cl.args {
		switch {
		case (x == "-o" || x == "--output" || x == "-O" && cl.name == "wget" || x == "--output-document") && i+1 < len(cl.args):
			out = cl.args[i+1]
		case strings.HasPrefix(x, "--output=") || strings.HasPrefix(x, "--output-document="):
			out = x[strings.Index(x, "=")+1:]
		case cl.name == "curl" && strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.HasSuffix(x, "o") && i+1 < len(cl.args):
			out = cl.args[i+1] // -fsSLo file
		}
	}
	if out == "" {
		for _, x := range cl.args {
			if strings.Contains(x, "://") && (cl.name == "wget" || hasFlag(cl.args, "-O", "--remote-name")) {
				out = path.Base(strings.SplitN(x, "?", 2)[0])
			}
		}
	}
	if out != "" && out != "-" {
		a.downloads[path.Base(out)] = line
	}
	if hasFlag(cl.args, "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form", "-T", "--upload-file", "--post-data", "--post-file", "--body-file") {
		a.sendLine = line
	}
	for _, x := range cl.args {
		if strings.HasPrefix(x, "@") && maybeCred(x) && credPath.Re().MatchString(x) {
			a.credLine = line
			a.sendLine = line
		}
	}
}

func (a *analyzer) runsDownload(cl *call) {
	if len(a.downloads) == 0 {
		return
	}
	target := ""
	switch {
	case a.downloads[path.Base(cl.name)] > 0 && (strings.HasPrefix(cl.name, ".") || strings.Contains(cl.name, "/")):
		target = cl.name
	case a.downloads[cl.name] > 0:
		target = cl.name
	case interpreters[cl.name] || cl.name == "chmod":
		for _, x := range cl.args {
			if strings.HasPrefix(x, "-") || cl.name == "chmod" && (strings.Contains(x, "+x") || isNumber(x)) {
				continue
			}
			if a.downloads[path.Base(x)] > 0 && cl.name != "chmod" {
				target = x
			}
			break
		}
	}
	if target == "" {
		return
	}
	if a.verified {
		a.add(VerifiedExec, Warn, cl.line, "runs %s, downloaded at line %d, after verifying a checksum", target, a.downloads[path.Base(target)])
		return
	}
	a.add(DownloadExec, Fail, cl.line, "runs %s, downloaded at line %d without verification", target, a.downloads[path.Base(target)])
}

func (a *analyzer) rm(cl *call, c *syntax.CallExpr) {
	if !hasFlag(cl.args, "-r", "-R", "--recursive") {
		return
	}
	if anyEqual(cl.args, "--no-preserve-root") {
		a.add(Destruction, Fail, cl.line, "rm --no-preserve-root")
	}
	for _, x := range cl.args {
		switch x {
		case "/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "/home", "/home/*", "/usr", "/etc", "/var", "/boot", "/bin", "/lib", "/opt", "/root", "/Users", "C:\\":
			a.add(Destruction, Fail, cl.line, "rm -r %s", x)
			continue
		}
		// "$DIR"/ or $DIR/* with no ${DIR:?} guard becomes rm -r / when DIR is empty.
		if strings.HasPrefix(x, "$") && !strings.HasPrefix(x, "${") && !strings.HasPrefix(x, "$(") {
			rest := strings.TrimLeft(x[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
			if rest == "/" || rest == "/*" {
				a.add(Destruction, Fail, cl.line, "rm -r %s: an empty variable makes this rm -r /", x)
			}
		}
	}
}

func (a *analyzer) chmod(cl *call) {
	recursive := hasFlag(cl.args, "-R", "--recursive")
	for i, x := range cl.args {
		if strings.HasPrefix(x, "-") {
			continue
		}
		if len(x) == 4 && (x[0] == '4' || x[0] == '6' || x[0] == '2') && isNumber(x) || strings.Contains(x, "u+s") || strings.Contains(x, "g+s") || x == "+s" {
			a.add(Privilege, Fail, cl.line, "chmod %s sets the setuid/setgid bit", x)
		}
		if recursive && (x == "777" || x == "a+rwx") && i+1 < len(cl.args) && (cl.args[i+1] == "/" || cl.args[i+1] == "~" || cl.args[i+1] == "$HOME") {
			a.add(Privilege, Fail, cl.line, "chmod -R %s %s", x, cl.args[i+1])
		}
		break
	}
}

// shellInvocation handles `sh -c BODY`, `bash script`, `bash -s` and a
// shell reading its program from stdin (rated by the pipeline).
func (a *analyzer) shellInvocation(cl *call, lineBase, depth int) {
	for i, x := range cl.args {
		if x == "-c" && i+1 < len(cl.args) {
			a.nested(cl, cl.args[i+1], lineBase, depth, false)
			return
		}
	}
}

func (a *analyzer) nested(cl *call, body string, lineBase, depth int, isEval bool) {
	if depth >= MaxDepth || strings.TrimSpace(body) == "" {
		return
	}
	// The nested program's lines count from the line of its command.
	_ = a.program([]byte(body), cl.line-1, depth+1)
}

// inlineCode rates `python -c CODE` and `node -e CODE` bodies with simple
// patterns: a socket wired to a shell, or fetched code executed.
func (a *analyzer) inlineCode(cl *call) {
	for i, x := range cl.args {
		if (x == "-c" || x == "-e" || x == "--eval") && i+1 < len(cl.args) {
			code := strings.ToLower(cl.args[i+1])
			if strings.Contains(code, "socket") && (strings.Contains(code, "subprocess") || strings.Contains(code, "pty.spawn") || strings.Contains(code, "/bin/sh") || strings.Contains(code, "dup2")) {
				a.add(ReverseShell, Fail, cl.line, "%s one-liner wires a socket to a shell", cl.name)
			}
			if containsAny(code, "urlopen", "requests.get", "requests.post", "fetch(", "http.get", "https.get", "require('https')", `require("https")`, "require('http')", `require("http")`, "httpx.", "urllib") &&
				containsAny(code, "exec(", "eval(", "child_process", "spawn(", "subprocess", "os.system", "execsync", "new function", "pty.spawn") {
				a.add(DownloadExec, Fail, cl.line, "%s one-liner executes what it fetches", cl.name)
			}
		}
	}
}

// pipeline rates `A | B` pairs: a fetch or decoder piped into an
// interpreter, and crontab fed from a pipe.
func (a *analyzer) pipeline(b *syntax.BinaryCmd, lineBase int) {
	stmts := flatten(b)
	for i := 0; i+1 < len(stmts); i++ {
		left := callsIn(stmts[i], a, lineBase)
		right := callsIn(stmts[i+1], a, lineBase)
		if len(right) == 0 {
			continue
		}
		r := right[0]
		readsStdin := interpreters[r.name] && stdinProgram(r)
		if r.name == "crontab" {
			continue // rated as a call
		}
		for _, l := range left {
			switch {
			case fetchers[l.name] && readsStdin:
				a.add(DownloadExec, Fail, r.line, "%s output piped into %s", l.name, r.name)
			case isDecoder(l) && readsStdin:
				a.add(DecodeExec, Fail, r.line, "decoded text (%s) piped into %s", l.name, r.name)
			}
		}
	}
}

func isDecoder(c *call) bool {
	switch c.name {
	case "base64", "base32", "basenc":
		return hasFlag(c.args, "-d", "--decode", "-D")
	case "xxd":
		return hasFlag(c.args, "-r")
	case "openssl":
		return anyEqual(c.args, "enc", "base64") && hasFlag(c.args, "-d")
	case "rev", "gunzip", "zcat", "bunzip2", "xz", "unxz":
		return c.name != "xz" || hasFlag(c.args, "-d")
	case "tr":
		return anyContains(c.args, "a-za-z", "n-za-mn-za-m")
	}
	return false
}

// stdinProgram: the interpreter reads its program from stdin (no script
// argument, or "-"/"-s").
func stdinProgram(c *call) bool {
	if c.name == "iex" || c.name == "invoke-expression" || c.name == "source" || c.name == "." {
		return true
	}
	for i, x := range c.args {
		if x == "-" || x == "-s" || x == "/dev/stdin" {
			return true
		}
		if x == "-c" || x == "-e" || x == "-m" {
			return false
		}
		if strings.HasPrefix(x, "-") {
			continue
		}
		_ = i
		return false
	}
	return true
}

func flatten(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	if l, ok := b.X.Cmd.(*syntax.BinaryCmd); ok && (l.Op == syntax.Pipe || l.Op == syntax.PipeAll) {
		out = append(out, flatten(l)...)
	} else {
		out = append(out, b.X)
	}
	if r, ok := b.Y.Cmd.(*syntax.BinaryCmd); ok && (r.Op == syntax.Pipe || r.Op == syntax.PipeAll) {
		out = append(out, flatten(r)...)
	} else {
		out = append(out, b.Y)
	}
	return out
}

// callsIn lists the simple commands of a statement (through subshells,
// blocks and && chains).
func callsIn(s *syntax.Stmt, a *analyzer, lineBase int) []*call {
	var out []*call
	syntax.Walk(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if c := a.resolveCall(x, lineBase); c != nil {
				out = append(out, c)
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return true
	})
	return out
}

// substCalls names the programs run inside a word's command or process
// substitutions.
func substCalls(w *syntax.Word) []string {
	var out []string
	syntax.Walk(w, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			out = append(out, strings.ToLower(path.Base(render(c.Args[0]))))
		}
		return true
	})
	return out
}

func isProcSubst(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.ProcSubst); ok {
			return true
		}
	}
	return false
}

func (a *analyzer) forkBomb(f *syntax.FuncDecl, lineBase int) {
	name := f.Name.Value
	self := 0
	background := false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if len(x.Args) > 0 && render(x.Args[0]) == name {
				self++
			}
		case *syntax.Stmt:
			if x.Background {
				background = true
			}
		}
		return true
	})
	if self >= 2 && background {
		a.add(Destruction, Fail, lineBase+int(f.Pos().Line()), "fork bomb (%s calls itself twice in the background)", name)
	}
}

func anyEqual(args []string, vals ...string) bool {
	for _, x := range args {
		for _, v := range vals {
			if x == v {
				return true
			}
		}
	}
	return false
}

func anyContains(args []string, vals ...string) bool {
	for _, x := range args {
		l := strings.ToLower(x)
		for _, v := range vals {
			if strings.Contains(l, v) {
				return true
			}
		}
	}
	return false
}

func anyPrefix(args []string, p string) bool {
	for _, x := range args {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// credHints are substrings every credential path holds; an argument with
// none skips the pattern.
var credHints = []string{".ssh", ".aws", ".kube", ".docker", ".gnupg", "gcloud", "/gh", ".azure", ".netrc", ".git-credentials",
	".npmrc", ".pypirc", ".claude", ".codex", "shadow", "id_", "Login Data", "logins.json", "key4.db", "wallet.dat", ".env"}

func maybeCred(s string) bool { return containsAny(s, credHints...) }
