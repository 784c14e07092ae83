package behave

import "testing"

type scanCase struct {
	name  string
	l     Ledger
	rule  string
	sev   string
	quiet bool
}

func runScanCases(t *testing.T, cases []scanCase) {
	t.Helper()
	for _, tc := range cases {
		got := Scan(&tc.l)
		if tc.quiet {
			if len(got) != 0 {
				t.Errorf("%s: flagged %+v", tc.name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Rule != tc.rule || got[0].Severity != tc.sev {
			t.Errorf("%s: %+v, want %s %s", tc.name, got, tc.rule, tc.sev)
		}
	}
}

func read(p string) Ledger { return Ledger{Files: []FileEvent{{Op: "read", Path: p}}} }

func ran(argv ...string) Ledger {
	return Ledger{Processes: []ProcEvent{{Path: "/usr/bin/" + argv[0], Argv: argv}}}
}

func reach(method, host string, out int64) Ledger {
	return Ledger{Network: []NetEvent{{Method: method, Host: host, Port: 443, BytesOut: out}}}
}

// Minimal pairs for each rule of the scan.
func TestScanRules(t *testing.T) {
	runScanCases(t, []scanCase{
		{"ssh key read", Ledger{Files: []FileEvent{{Op: "read", Path: Home + "/.ssh/id_rsa"}}}, RuleSensitiveFile, "fail", false},
		{"own file read", Ledger{Files: []FileEvent{{Op: "read", Path: "/artifact/ssh/id_rsa.md", OK: true}}}, "", "", true},
		{"relative aws", Ledger{Files: []FileEvent{{Op: "read", Path: "../home/user/.aws/credentials"}}}, RuleSensitiveFile, "fail", false},
		{"environ", Ledger{Files: []FileEvent{{Op: "read", Path: "/proc/1/environ", OK: true}}}, RuleSensitiveFile, "fail", false},
		{"canary sent", Ledger{Network: []NetEvent{{Method: "CONNECT", Host: "x.example", Port: 443, Allowed: true, Canary: true}}}, RuleCanaryLeak, "fail", false},
		{"post refused", Ledger{Network: []NetEvent{{Method: "POST", Host: "x.example", Port: 80, BytesOut: 10}}}, RuleDataEgress, "fail", false},
		{"connect refused", Ledger{Network: []NetEvent{{Method: "CONNECT", Host: "x.example", Port: 443}}}, RuleEgressAttempt, "warn", false},
		{"allowed host", Ledger{Network: []NetEvent{{Method: "CONNECT", Host: "pypi.org", Port: 443, Allowed: true}}}, "", "", true},
		{"metadata", Ledger{Network: []NetEvent{{Method: "GET", Host: "169.254.169.254", Port: 80}}}, RuleMetadata, "fail", false},
		{"rm -rf ~", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/rm", Argv: []string{"rm", "-rf", "/home/user"}}}}, RuleDestructive, "fail", false},
		{"rm -rf build", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/rm", Argv: []string{"rm", "-rf", "/work/build"}}}}, "", "", true},
		{"rm / split flags", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/rm", Argv: []string{"rm", "-r", "-f", "/"}}}}, RuleDestructive, "fail", false},
		// crontab -l lists the table (the vocabulary's negative example);
		// crontab - installs one from standard input.
		{"crontab", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/crontab", Argv: []string{"crontab", "-"}}}}, RulePersistence, "fail", false},
		{"crontab -l", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/crontab", Argv: []string{"crontab", "-l"}}}}, "", "", true},
		{"loopback connect", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "127.0.0.1:8080"}}}, "", "", true},
		{"metadata connect", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "169.254.169.254:80"}}}, RuleMetadata, "fail", false},
	})
}

// What a file is comes from the vocabulary's path entries: a positive
// and a negative for each label the scan treats as sensitive.
func TestScanSensitiveFiles(t *testing.T) {
	fail := func(name, p string) scanCase { return scanCase{name, read(p), RuleSensitiveFile, "fail", false} }
	quiet := func(name, p string) scanCase { return scanCase{name: name, l: read(p), quiet: true} }
	runScanCases(t, []scanCase{
		fail("credential-store", Home+"/.aws/credentials"),
		quiet("credential-store negative", Home+"/.awsome"),
		fail("credential-store shadow", "/etc/shadow"),
		quiet("system file", "/etc/hostname"),
		fail("keychain", Home+"/.local/share/keyrings/login.keyring"),
		quiet("keychain negative", Home+"/.local/share/recently-opened"),
		fail("browser-data", Home+"/.config/google-chrome/Default/Cookies"),
		quiet("browser-data negative", Home+"/.config/google-chrome-notes.txt"),
		fail("wallet", Home+"/.bitcoin/wallet.dat"),
		quiet("wallet negative", Home+"/bitcoin-notes.txt"),
		fail("agent-config", Home+"/.claude.json"),
		quiet("agent-config negative", Home+"/.claude-notes.txt"),
		fail("history", Home+"/.bash_history"),
		quiet("history negative", Home+"/notes/bash-tips.txt"),
		fail("env-file", Home+"/.env"),
		quiet("env-file of the program", "/work/.env"),
		quiet("env-file at the root", "/.env"),
		fail("proc-environ", "/proc/42/environ"),
		quiet("proc-environ negative", "/proc/42/status"),
		quiet("public key", Home+"/.ssh/id_ed25519.pub"),
		quiet("known_hosts", Home+"/.ssh/known_hosts"),
		quiet("installed CA bundle", Home+"/.local/lib/python3.12/site-packages/certifi/cacert.pem"),
		// Evasion: a path spelled around the home directory.
		fail("dotted path", Home+"/x/../.ssh/./id_rsa"),
	})
}

// Programs are read by their vocabulary entries: sink:delete on the
// machine, sink:persist, sink:net-send to somewhere else.
func TestScanCommands(t *testing.T) {
	fail := func(name, rule string, argv ...string) scanCase {
		return scanCase{name, ran(argv...), rule, "fail", false}
	}
	warn := func(name, rule string, argv ...string) scanCase {
		return scanCase{name, ran(argv...), rule, "warn", false}
	}
	quiet := func(name string, argv ...string) scanCase { return scanCase{name: name, l: ran(argv...), quiet: true} }
	runScanCases(t, []scanCase{
		fail("rm a system directory", RuleDestructive, "rm", "-rf", "/etc"),
		fail("rm in a system directory", RuleDestructive, "rm", "/usr/bin/python3"),
		quiet("rm scratch", "rm", "-rf", "/var/tmp/build"),
		fail("rm home glob", RuleDestructive, "rm", "-rf", "/home/user/*"),
		quiet("rm in home", "rm", "-rf", "/home/user/.cache/tool"),
		fail("mkfs a device", RuleDestructive, "mkfs.ext4", "/dev/sda1"),
		quiet("mkfs an image", "mkfs.ext4", "/work/disk.img"),
		fail("dd to a disk", RuleDestructive, "dd", "if=/dev/zero", "of=/dev/sda", "bs=1M"),
		quiet("dd to a file", "dd", "if=in.img", "of=out.img"),
		fail("shred a disk", RuleDestructive, "shred", "-n", "1", "/dev/nvme0n1"),
		quiet("shred a file", "shred", "-u", "/work/notes.txt"),
		fail("systemctl enable", RulePersistence, "systemctl", "--user", "enable", "updater.service"),
		quiet("systemctl status", "systemctl", "status", "nginx"),
		fail("launchctl load", RulePersistence, "launchctl", "load", "/home/user/Library/LaunchAgents/x.plist"),
		quiet("launchctl list", "launchctl", "list"),
		fail("at", RulePersistence, "at", "now", "+", "1", "minute"),
		warn("ssh", RuleSensitiveShell, "ssh", "-i", "/home/user/.ssh/id_rsa", "user@h.example"),
		warn("scp out", RuleSensitiveShell, "scp", "/work/out.txt", "user@h.example:/tmp/"),
		quiet("rsync local", "rsync", "-a", "./dist/", "build/"),
		warn("nc", RuleSensitiveShell, "nc", "10.0.0.1", "9001"),
		quiet("nc probe of the loopback", "nc", "-z", "localhost", "5432"),
		warn("openssl s_client", RuleSensitiveShell, "openssl", "s_client", "-connect", "h.example:443"),
		quiet("openssl version", "openssl", "version"),
		quiet("echo", "echo", "rm", "-rf", "/"),
	})
}

// Hosts are read by the vocabulary's host entries.
func TestScanHosts(t *testing.T) {
	runScanCases(t, []scanCase{
		{"metadata by name", reach("GET", "metadata.google.internal", 0), RuleMetadata, "fail", false},
		{"metadata by its bare name", reach("GET", "metadata", 0), RuleMetadata, "fail", false},
		{"a host named like it", reach("CONNECT", "metadata.example.com", 0), RuleEgressAttempt, "warn", false},
		{"metadata of another cloud", reach("GET", "100.100.100.200", 0), RuleMetadata, "fail", false},
		{"link-local, not metadata", reach("CONNECT", "169.254.1.1", 0), RuleEgressAttempt, "warn", false},
		{"capture host", reach("CONNECT", "abc.webhook.site", 0), RuleEgressAttempt, "fail", false},
		{"tunnel host", reach("CONNECT", "x.trycloudflare.com", 0), RuleEgressAttempt, "fail", false},
		{"ordinary host", reach("CONNECT", "webhooks.example.com", 0), RuleEgressAttempt, "warn", false},
		{"metadata connect v6", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "[fd00:ec2::254]:80"}}}, RuleMetadata, "fail", false},
		{"metadata connect by name", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "metadata:80"}}}, RuleMetadata, "fail", false},
		{"direct connect", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "203.0.113.7:9"}}}, RuleDirectConnect, "warn", false},
	})
}
