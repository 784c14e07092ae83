package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/behave/model/modeltest"
	"github.com/metahub-ai/attest/cmd/attest-net/nettest"
)

// sandbox is bubblewrap, required in CI (.ci/run installs it).
func sandbox(t *testing.T) *behave.Bubblewrap {
	t.Helper()
	b := &behave.Bubblewrap{}
	if _, err := b.Probe(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no sandbox in CI: %v", err)
		}
		t.Skipf("SKIPPING: %v", err)
	}
	if _, err := exec.LookPath("strace"); err != nil && os.Getenv("CI") != "" {
		t.Fatal("no strace in CI (.ci/run installs it)")
	}
	return b
}

// fixture copies testdata/behave/NAME where the sandbox user can read it.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "behave", name)
	dst := filepath.Join(t.TempDir(), name)
	os.Chmod(filepath.Dir(dst), 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(dst)), 0o755)
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func agentPath(t *testing.T) string {
	t.Helper()
	p, dir, err := behave.InstallAgent(nettest.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return p
}

func roles(t *testing.T, f *modeltest.Fake, provider string) (driver, judge, synth *model.Role) {
	t.Helper()
	s := model.Settings{Provider: provider, BaseURL: f.URL, Key: f.Key, Model: "fake-driver"}
	if provider != "anthropic" {
		s.BaseURL += "/v1"
	}
	retry := model.Retry{Sleep: func(context.Context, time.Duration) error { return nil }}
	d, _ := model.New(s, "fake-driver", nil, retry)
	j, _ := model.New(s, "fake-judge", nil, retry)
	return &model.Role{Name: "driver", Client: d, Params: model.Params{Temperature: 0.7, MaxTokens: 4096}},
		&model.Role{Name: "judge", Client: j, Params: model.Params{Temperature: 0, MaxTokens: 1024}},
		&model.Role{Name: "synthesis", Client: d, Params: model.Params{Temperature: 0.2, MaxTokens: 2048}}
}

var testLimits = behave.Limits{Wall: 60 * time.Second, CPU: 30 * time.Second, Memory: 2 << 30, Processes: 64,
	FileSize: 16 << 20, Disk: 64 << 20, Output: 1 << 20}

func options(t *testing.T, sb behave.Sandbox, f *modeltest.Fake, provider, kind, dir string) Options {
	d, j, s := roles(t, f, provider)
	return Options{Sandbox: sb, Agent: agentPath(t), Dir: dir, Kind: kind, Driver: d, Judge: j, Synthesis: s,
		Transcripts: t.TempDir(), Limits: testLimits}
}

// A benign skill runs as documented: the judge passes it, and the scan
// finds nothing.
func TestBenignSkill(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "skill", fixture(t, "benign-skill"))
	o.AllowedTools = []string{"Bash(python3:*)", "Read"}
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.Cases) != 1 || obs.Cases[0].Source != "evals/basic.json" || len(obs.Cases[0].Runs) != 1 {
		t.Fatalf("cases: %+v", obs.Cases)
	}
	run := obs.Cases[0].Runs[0]
	if run.Error != "" || run.Pass == nil || !*run.Pass || *run.Score < PassThreshold {
		t.Fatalf("run: %+v errors %v", run, obs.Errors)
	}
	if len(obs.Safety) != 0 {
		t.Fatalf("a benign skill flagged: %+v", obs.Safety)
	}
	// The transcript holds the tool call and its real output from the
	// sandbox.
	data, err := os.ReadFile(filepath.Join(o.Transcripts, run.Transcript+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `exit code 0\nstdout:\n9\n`) {
		t.Fatalf("transcript: %s", data)
	}
	if obs.Ledger.Method == "strace" {
		found := false
		for _, p := range obs.Ledger.Processes {
			if strings.HasSuffix(p.Path, "python3") || strings.Contains(strings.Join(p.Argv, " "), "count.py") {
				found = true
			}
		}
		if !found {
			t.Fatalf("the process ledger misses the counter: %+v", obs.Ledger.Processes)
		}
	}
	if f.Calls["driver"] != 2 || f.Calls["judge"] != 1 {
		t.Fatalf("calls: %v", f.Calls)
	}
}

// A skill that reads ~/.ssh/id_rsa at run time, packed so no static rule
// reads it, is caught by the ledgers: the file read, and the decoy key
// sent towards an undeclared host.
func TestPackedSSHReader(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "openai", "skill", fixture(t, "packed-ssh-skill"))
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.Cases) != 1 || obs.Cases[0].Source != "synthesized" {
		t.Fatalf("cases: %+v %v", obs.Cases, obs.Errors)
	}
	rules := map[string]string{}
	for _, s := range obs.Safety {
		rules[s.Rule] = s.Severity + " " + s.Message
	}
	if !strings.HasPrefix(rules[behave.RuleDataEgress], "fail") && !strings.HasPrefix(rules[behave.RuleCanaryLeak], "fail") {
		t.Fatalf("no egress finding: %+v\nledger %+v", obs.Safety, obs.Ledger.Network)
	}
	if obs.Ledger.Method == "strace" && !strings.Contains(rules[behave.RuleSensitiveFile], "~/.ssh/id_rsa") {
		t.Fatalf("no file finding: %+v\nfiles %+v", obs.Safety, obs.Ledger.Files)
	}
	var canary bool
	for _, n := range obs.Ledger.Network {
		canary = canary || (n.Canary && n.Host == "collector.example.net" && !n.Allowed)
	}
	if !canary {
		t.Fatalf("the network ledger misses the decoy key: %+v", obs.Ledger.Network)
	}
}

// A command-injection MCP server is caught by a probe that demonstrates
// it; its minimal pair, the same server without a shell, is not.
func TestMCPProbes(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	for _, tc := range []struct {
		name         string
		demonstrated bool
	}{{"injectable-mcp", true}, {"safe-mcp", false}} {
		t.Run(tc.name, func(t *testing.T) {
			o := options(t, sb, f, "openai-responses", "mcp", fixture(t, tc.name))
			o.Launch = []string{"python3", "/artifact/server.py"}
			obs, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if len(obs.Cases) != 1 || len(obs.Cases[0].Runs) != 1 || obs.Cases[0].Runs[0].Pass == nil || !*obs.Cases[0].Runs[0].Pass {
				t.Fatalf("the driven case: %+v %v", obs.Cases, obs.Errors)
			}
			var demo []behave.Probe
			classes := map[string]bool{}
			for _, p := range obs.Probes {
				classes[p.Class] = true
				if p.Outcome == behave.Demonstrated {
					demo = append(demo, p)
				}
			}
			if !classes["command-injection"] || !classes["oversized-input"] {
				t.Fatalf("probes: %+v", obs.Probes)
			}
			if (len(demo) > 0) != tc.demonstrated {
				t.Fatalf("demonstrated %+v, want %v; all %+v", demo, tc.demonstrated, obs.Probes)
			}
			if tc.demonstrated && demo[0].Class != "command-injection" {
				t.Fatalf("demonstrated: %+v", demo)
			}
		})
	}
}
