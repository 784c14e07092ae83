package behave

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// Limits of the strace log reader: the log is written by strace, but what
// it quotes (paths, arguments) is the artifact's.
const (
	maxTraceLine  = 64 << 10
	maxTraceLines = 4 << 20
)

// traceLine is one completed system call.
type traceLine struct {
	pid  int
	name string
	args []string
	ret  string
}

// ParseTrace reads an strace -f log of a sandbox run through the agent and
// returns the ledger of what the artifact did: programs run, files touched
// and connections it made itself. The agent's own calls, and bwrap's
// before it, are left out: a process belongs to the artifact once a
// process the agent started has executed a program, and so do all its
// descendants.
func ParseTrace(r io.Reader) *Ledger {
	l := &Ledger{Method: "strace", Network: []NetEvent{}, Files: []FileEvent{}, Processes: []ProcEvent{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxTraceLine)
	pending := map[int]string{}
	var lines []traceLine
	n := 0
	for {
		if !sc.Scan() {
			if sc.Err() == bufio.ErrTooLong {
				// One overlong line is skipped, not the rest of the log.
				sc = bufio.NewScanner(r)
				sc.Buffer(make([]byte, 4096), maxTraceLine)
				l.Truncated = true
				continue
			}
			break
		}
		if n++; n > maxTraceLines {
			l.Truncated = true
			break
		}
		pidStr, rest, ok := strings.Cut(sc.Text(), " ")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil {
			continue
		}
		rest = strings.TrimLeft(rest, " ")
		switch {
		case strings.HasPrefix(rest, "+++") || strings.HasPrefix(rest, "---"):
			continue
		case strings.HasSuffix(rest, "<unfinished ...>"):
			pending[pid] = strings.TrimSuffix(rest, "<unfinished ...>")
			continue
		case strings.HasPrefix(rest, "<... "):
			head, ok := pending[pid]
			delete(pending, pid)
			_, tail, found := strings.Cut(rest, " resumed>")
			if !ok || !found {
				continue
			}
			rest = head + tail
		}
		if tl, ok := parseCall(pid, rest); ok {
			lines = append(lines, tl)
		}
	}
	classify(l, lines)
	return l
}

// parseCall splits `name(args) = ret`; strace pads a resumed call's
// ") = " to a column.
func parseCall(pid int, s string) (traceLine, bool) {
	open := strings.IndexByte(s, '(')
	eq := strings.LastIndex(s, " = ")
	if open <= 0 || eq < open {
		return traceLine{}, false
	}
	end := eq
	for end > open && s[end-1] == ' ' {
		end--
	}
	if end <= open || s[end-1] != ')' {
		return traceLine{}, false
	}
	return traceLine{pid: pid, name: s[:open], args: splitArgs(s[open+1 : end-1]), ret: s[eq+3:]}, true
}

// splitArgs splits an argument list at its top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// unquote decodes one strace string ("…", possibly followed by ... when
// cut short); ok is false for anything else (a NULL, an address).
func unquote(s string) (string, bool) {
	s = strings.TrimSuffix(s, "...")
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		default:
			if e >= '0' && e <= '7' {
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 16)
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

// strings of an array argument ["a", "b"].
func stringArray(s string) []string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil
	}
	var out []string
	for _, a := range splitArgs(s[1 : len(s)-1]) {
		if v, ok := unquote(a); ok {
			out = append(out, v)
		}
	}
	return out
}

func succeeded(ret string) bool { return !strings.HasPrefix(ret, "-") && !strings.HasPrefix(ret, "?") }

// classify keeps the artifact's calls. The log is read twice: a child's
// first calls can be logged before its parent's clone returns.
func classify(l *Ledger, lines []traceLine) {
	const (
		setup = iota + 1
		agent
		artifact
		installer
	)
	parent := map[int]int{}
	thread := map[int]bool{}
	firstExec := map[int][]string{}
	agentPid := 0
	for _, t := range lines {
		switch t.name {
		case "clone", "clone3", "fork", "vfork":
			// Inside the sandbox's pid namespace clone returns its own
			// numbering; --pidns-translation adds the host's, which the
			// log's pids are in.
			ret := t.ret
			if i := strings.Index(ret, "/* "); i >= 0 && strings.Contains(ret, "in strace's PID NS") {
				ret = ret[i+3:]
			}
			child, err := strconv.Atoi(firstArg(strings.Fields(ret)))
			if err != nil || child <= 0 {
				continue
			}
			parent[child] = t.pid
			thread[child] = strings.Contains(strings.Join(t.args, ","), "CLONE_THREAD")
		case "execve":
			if p, _ := unquote(firstArg(t.args)); p == AgentPath && succeeded(t.ret) && agentPid == 0 {
				agentPid = t.pid
			}
			if _, ok := firstExec[t.pid]; !ok && succeeded(t.ret) && len(t.args) > 1 {
				firstExec[t.pid] = stringArray(t.args[1])
			}
		}
	}
	role := map[int]int{}
	var roleOf func(pid, depth int) int
	roleOf = func(pid, depth int) int {
		if r := role[pid]; r != 0 {
			return r
		}
		r := setup
		if pid == agentPid {
			r = agent
		} else if p, ok := parent[pid]; ok && depth < 10000 {
			switch roleOf(p, depth+1) {
			case agent:
				r = artifact
				if argv := firstExec[pid]; thread[pid] {
					r = agent
				} else if len(argv) == 4 && argv[0] == "/bin/sh" && argv[3] == PrepareName {
					// Only a process the agent itself started, and only by
					// the first program it ran: the artifact cannot claim it.
					r = installer
				}
			case artifact:
				r = artifact
			case installer:
				r = installer
			}
		}
		role[pid] = r
		return r
	}
	seen := map[string]bool{}
	for _, t := range lines {
		if roleOf(t.pid, 0) == artifact {
			record(l, t, seen)
		}
	}
}

func firstArg(a []string) string {
	if len(a) == 0 {
		return ""
	}
	return a[0]
}

// record adds one of the artifact's calls to the ledger.
func record(l *Ledger, t traceLine, seen map[string]bool) {
	once := func(k string) bool {
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	str := func(i int) string {
		if i < len(t.args) {
			v, _ := unquote(t.args[i])
			return v
		}
		return ""
	}
	file := func(op, p string) {
		if p == "" || boring(p) || !once(fmt.Sprint("f", op, p, succeeded(t.ret))) {
			return
		}
		if len(l.Files) >= MaxFileEvents {
			l.Truncated = true
			return
		}
		l.Files = append(l.Files, FileEvent{Op: op, Path: p, OK: succeeded(t.ret)})
	}
	openOp := func(flags string) string {
		switch {
		case strings.Contains(flags, "O_CREAT"):
			return "create"
		case strings.Contains(flags, "O_WRONLY") || strings.Contains(flags, "O_RDWR"):
			return "write"
		}
		return "read"
	}
	switch t.name {
	case "execve", "execveat":
		pi := 0
		if t.name == "execveat" {
			pi = 1
		}
		if !succeeded(t.ret) || len(t.args) <= pi+1 {
			return
		}
		if len(l.Processes) >= MaxProcEvents {
			l.Truncated = true
			return
		}
		argv := stringArray(t.args[pi+1])
		if len(l.Processes) == 0 && str(pi) == "/bin/true" && len(argv) == 1 {
			return // the session's own check that the sandbox starts
		}
		if path.Base(str(pi)) == "prlimit" && len(argv) > 2 && strings.HasPrefix(argv[1], "--nproc=") && argv[2] == "--" {
			return // the agent's wrapper; the program it runs is recorded next
		}
		l.Processes = append(l.Processes, ProcEvent{Path: str(pi), Argv: argv})
	case "open":
		if len(t.args) > 1 {
			file(openOp(t.args[1]), str(0))
		}
	case "openat", "openat2":
		if len(t.args) > 2 {
			file(openOp(t.args[2]), str(1))
		}
	case "creat":
		file("create", str(0))
	case "unlink":
		file("delete", str(0))
	case "unlinkat":
		file("delete", str(1))
	case "rename":
		file("rename", str(0))
	case "renameat", "renameat2":
		file("rename", str(1))
	case "connect", "sendto":
		i := 1
		if t.name == "sendto" {
			i = 4
		}
		if i >= len(t.args) {
			return
		}
		addr := sockaddr(t.args[i])
		if addr == "" || addr == ProxyAddr || addr == ProxySocket || strings.HasPrefix(addr, "/var/run/nscd/") || strings.HasPrefix(addr, "/run/nscd/") || !once("c"+addr) {
			return
		}
		if len(l.Processes) >= MaxProcEvents {
			l.Truncated = true
			return
		}
		l.Processes = append(l.Processes, ProcEvent{Path: t.name, Connect: addr})
	}
}

// sockaddr reads an inet, inet6 or unix address from strace's rendering.
func sockaddr(s string) string {
	field := func(key string) string {
		i := strings.Index(s, key)
		if i < 0 {
			return ""
		}
		v := s[i+len(key):]
		if j := strings.IndexAny(v, ",}"); j >= 0 {
			v = v[:j]
		}
		return strings.TrimSpace(v)
	}
	port := strings.TrimSuffix(strings.TrimPrefix(field("sin_port=htons("), ""), ")")
	if port == "" {
		port = strings.TrimSuffix(field("sin6_port=htons("), ")")
	}
	if a := field("sin_addr=inet_addr("); a != "" {
		ip, _ := unquote(strings.TrimSuffix(a, ")"))
		return ip + ":" + port
	}
	if a := field("inet_pton(AF_INET6, "); a != "" {
		ip, _ := unquote(strings.TrimSuffix(a, ")"))
		return "[" + ip + "]:" + port
	}
	if a := field("sun_path="); a != "" {
		p, _ := unquote(a)
		return p
	}
	return ""
}

// boring are the reads every program makes (the loader, locales, /proc of
// itself); they would drown the ledger.
func boring(p string) bool {
	if !path.IsAbs(p) {
		return false
	}
	for _, pre := range []string{"/usr/", "/lib", "/etc/ld.so", "/proc/self/", "/sys/", "/dev/null", "/dev/tty", "/dev/urandom", "/etc/alternatives/", "/etc/ssl/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	switch p {
	case "/etc/localtime", "/dev/pts/ptmx", "/proc/filesystems", "/etc/nsswitch.conf", "/etc/passwd", "/etc/group",
		"/proc/sys/kernel/ngroups_max", "/proc/meminfo", "/proc/stat", "/etc/host.conf", "/etc/resolv.conf", "/etc/hosts", "/etc/gai.conf":
		return true
	}
	return false
}
