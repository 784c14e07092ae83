package behave

import "testing"

// Minimal pairs for each rule of the scan.
func TestScanRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		l     Ledger
		rule  string
		sev   string
		quiet bool
	}{
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
		{"crontab", Ledger{Processes: []ProcEvent{{Path: "/usr/bin/crontab", Argv: []string{"crontab", "-l"}}}}, RulePersistence, "fail", false},
		{"loopback connect", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "127.0.0.1:8080"}}}, "", "", true},
		{"metadata connect", Ledger{Processes: []ProcEvent{{Path: "connect", Connect: "169.254.169.254:80"}}}, RuleMetadata, "fail", false},
	} {
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
