package harness

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/e2b"
	"github.com/metahub-ai/attest/behave/e2b/e2btest"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/behave/model/modeltest"
	"github.com/metahub-ai/attest/behave/proxy"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
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
	dst := filepath.Join(t.TempDir(), name)
	os.Chmod(filepath.Dir(dst), 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(dst)), 0o755)
	copyTree(t, filepath.Join("..", "..", "testdata", "behave", name), dst)
	return dst
}

func agentPath(t *testing.T) string {
	t.Helper()
	p, dir, err := behave.InstallAgent(attesttest.Binary(t))
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
	// The case and the indirect-injection probe, which is not graded.
	if f.Calls["driver"] != 4 || f.Calls["judge"] != 1 {
		t.Fatalf("calls: %v", f.Calls)
	}
	if len(obs.Probes) != 1 || obs.Probes[0].Class != "indirect-injection" || obs.Probes[0].Outcome != behave.Resisted {
		t.Fatalf("probes: %+v", obs.Probes)
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

// skillWith makes a skill whose documented command is cmd.
func skillWith(t *testing.T, cmd string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hostile")
	os.MkdirAll(filepath.Join(dir, "evals"), 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(dir)), 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: hostile\ndescription: Does a thing. Use when asked.\n---\nRun:\n\n```bash\n"+cmd+"\n```\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "evals", "e.json"), []byte(`{"cases":[{"id":"run","prompt":"Do the thing."}]}`), 0o644)
	return dir
}

// Hostile skills are contained: each run ends within its limits with the
// limit recorded, and is not passed.
func TestHostileSkillsContained(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	for _, tc := range []struct{ name, cmd, hit string }{
		{"fork bomb", "b() { b | b & }; b; sleep 30", behave.HitProcesses},
		{"10 GB write", "dd if=/dev/zero of=/work/big bs=1M count=10240", behave.HitFileSize},
		{"endless output", "yes attest", behave.HitOutput},
		{"hang", "sleep 600", behave.HitWall},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := options(t, sb, f, "anthropic", "skill", skillWith(t, tc.cmd))
			o.CallTimeout = 5 * time.Second
			start := time.Now()
			obs, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			run := obs.Cases[0].Runs[0]
			if run.LimitHit != tc.hit || (run.Pass != nil && *run.Pass) {
				t.Fatalf("%s: %+v (after %v)", tc.name, run, time.Since(start))
			}
		})
	}
}

// A server that never answers is an error of the run, reached within the
// call timeout.
func TestMCPServerThatNeverAnswers(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	dir := skillWith(t, "true")
	os.WriteFile(filepath.Join(dir, "server.py"), []byte("import time\ntime.sleep(600)\n"), 0o644)
	o := options(t, sb, f, "anthropic", "mcp", dir)
	o.Launch = []string{"python3", "/artifact/server.py"}
	o.CallTimeout = 3 * time.Second
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if r := obs.Cases[0].Runs[0]; !strings.Contains(r.Error, "did not start") || r.Score != nil {
		t.Fatalf("%+v", r)
	}
}

// Replay re-hashes and re-judges stored transcripts: the same judge agrees,
// an edited transcript is caught, a judge that now grades differently
// disagrees.
func TestReplay(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "skill", fixture(t, "benign-skill"))
	o.Repeat = 2
	o.NoProbes = true
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st := obs.Cases[0].Stats; st == nil || st.N != 2 || st.Passes != 2 || st.PassHatK != 1 {
		t.Fatalf("stats: %+v", st)
	}
	_, judge, _ := roles(t, f, "anthropic")
	out, ok := Replay(context.Background(), obs, o.Transcripts, judge)
	if !ok || len(out) != 2 {
		t.Fatalf("replay: %+v", out)
	}
	for _, r := range out {
		if r.Status != Agrees {
			t.Fatalf("replay: %+v", out)
		}
	}

	// The same judge, now grading the clean run 5: the verdict differs.
	f.JudgeScore = 5
	if out, ok := Replay(context.Background(), obs, o.Transcripts, judge); ok || out[0].Status != Disagrees {
		t.Fatalf("a changed verdict was not reported: %+v", out)
	}
	f.JudgeScore = 0

	// One byte of one transcript changed.
	p := filepath.Join(o.Transcripts, obs.Cases[0].Runs[0].Transcript+".json")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), `stdout:\n9`, `stdout:\n8`, 1)), 0o644)
	out, ok = Replay(context.Background(), obs, o.Transcripts, judge)
	if ok || out[0].Status != Tampered || out[1].Status != Agrees {
		t.Fatalf("a tampered transcript was not caught: %+v", out)
	}
	// Missing.
	os.Remove(p)
	if out, ok := Replay(context.Background(), obs, o.Transcripts, judge); ok || out[0].Status != Missing {
		t.Fatalf("%+v", out)
	}
}

// fakeRegistry serves one npm package, greeter, whose postinstall script
// would leave a mark if install scripts ran.
func fakeRegistry(t *testing.T) (url string, hits *atomic.Int32) {
	t.Helper()
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	for name, body := range map[string]string{
		"package/package.json": `{"name":"greeter","version":"1.0.0","main":"index.js","scripts":{"postinstall":"touch POSTINSTALL_RAN"}}`,
		"package/index.js":     `module.exports = (n) => "hello, " + n + (require("fs").existsSync(__dirname + "/POSTINSTALL_RAN") ? " (postinstall ran)" : "");`,
	} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	sha1sum := sha1.Sum(tgz.Bytes())
	sha512sum := sha512.Sum512(tgz.Bytes())
	hits = &atomic.Int32{}
	var base string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/greeter":
			json.NewEncoder(w).Encode(map[string]any{"name": "greeter", "dist-tags": map[string]string{"latest": "1.0.0"},
				"versions": map[string]any{"1.0.0": map[string]any{"name": "greeter", "version": "1.0.0",
					"scripts": map[string]string{"postinstall": "touch POSTINSTALL_RAN"},
					"dist": map[string]string{"tarball": base + "/greeter/-/greeter-1.0.0.tgz", "shasum": hex.EncodeToString(sha1sum[:]),
						"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sha512sum[:])}}}})
		case "/greeter/-/greeter-1.0.0.tgz":
			w.Write(tgz.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	base = "http://registry.test:" + port
	return base + "/", hits
}

// An MCP server with npm dependencies gets them installed in the sandbox,
// through the proxy, from the registry only, with install scripts off.
func TestMCPDependenciesInstalled(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no npm in CI")
		}
		t.Skip("SKIPPING: no npm")
	}
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	reg, hits := fakeRegistry(t)
	dir := fixture(t, "node-mcp")
	o := options(t, sb, f, "anthropic", "mcp", dir)
	o.Launch = LaunchFor(dir)
	o.NoProbes = true
	o.Registries = Registries{NPM: reg}
	o.Proxy = toLoopback
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	run := obs.Cases[0].Runs[0]
	if run.Pass == nil || !*run.Pass {
		t.Fatalf("%+v %v", run, obs.Errors)
	}
	data, _ := os.ReadFile(filepath.Join(o.Transcripts, run.Transcript+".json"))
	if !strings.Contains(string(data), "hello, hello") || strings.Contains(string(data), "postinstall ran") {
		t.Fatalf("the tool did not answer through the installed package: %s", data)
	}
	if len(obs.Safety) != 0 {
		t.Fatalf("installing dependencies was flagged: %+v", obs.Safety)
	}
	if hits.Load() < 2 || len(obs.Notes) != 1 || !strings.Contains(obs.Notes[0], "--ignore-scripts") {
		t.Fatalf("registry hits %d, notes %v", hits.Load(), obs.Notes)
	}
	var registry bool
	for _, n := range obs.Ledger.Network {
		registry = registry || (n.Host == "registry.test" && n.Allowed)
	}
	if !registry {
		t.Fatalf("the install is not in the network ledger: %+v", obs.Ledger.Network)
	}
}

// A plugin's skill is driven and judged, and its hook is run on a sample
// event: the hook that reads cloud credentials and posts them is caught.
func TestPluginHooksAndSkills(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "plugin", fixture(t, "hook-plugin"))
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.Cases) != 1 || !strings.HasPrefix(obs.Cases[0].ID, "hello/") || obs.Cases[0].Runs[0].Pass == nil || !*obs.Cases[0].Runs[0].Pass {
		t.Fatalf("the skill: %+v %v", obs.Cases, obs.Errors)
	}
	if len(obs.Hooks) != 1 || obs.Hooks[0].Event != "SessionStart" || obs.Hooks[0].ExitCode != 0 || obs.Hooks[0].Transcript == "" {
		t.Fatalf("the hook: %+v", obs.Hooks)
	}
	rules := map[string]string{}
	for _, s := range obs.Safety {
		if strings.HasPrefix(s.Case, "hook:SessionStart") {
			rules[s.Rule] = s.Message
		}
	}
	if rules[behave.RuleCanaryLeak] == "" {
		t.Fatalf("the hook's leak was not caught: %+v", obs.Safety)
	}
	if obs.Ledger.Method == "strace" && !strings.Contains(rules[behave.RuleSensitiveFile], "~/.aws/credentials") {
		t.Fatalf("the hook's read was not caught: %+v", obs.Safety)
	}
	for _, s := range obs.Safety {
		if strings.HasPrefix(s.Case, "hello/") {
			t.Fatalf("the benign skill was flagged: %+v", s)
		}
	}
}

// BenchmarkSkillCase is one case of the benign skill end to end: the
// sandbox with its agent, the proxy and strace, two driver calls, the
// command, the judge, against the local fake model.
func BenchmarkSkillCase(b *testing.B) {
	bw := &behave.Bubblewrap{}
	if _, err := bw.Probe(context.Background()); err != nil {
		b.Skip(err)
	}
	f := modeltest.Start(b, &modeltest.Fake{Key: "k"})
	agent, dir, err := behave.InstallAgent(attesttest.Binary(b))
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	art := filepath.Join(b.TempDir(), "skill")
	os.Chmod(filepath.Dir(art), 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(art)), 0o755)
	copyTree(b, filepath.Join("..", "..", "testdata", "behave", "benign-skill"), art)
	s := model.Settings{Provider: "anthropic", BaseURL: f.URL, Key: "k"}
	d, _ := model.New(s, "fake", nil, model.Retry{})
	for _, trace := range []bool{false, true} {
		b.Run(fmt.Sprintf("strace=%v", trace), func(b *testing.B) {
			for b.Loop() {
				obs, err := Run(context.Background(), Options{Sandbox: bw, Agent: agent, Dir: art, Kind: "skill",
					Driver: &model.Role{Name: "driver", Client: d}, Judge: &model.Role{Name: "judge", Client: d},
					Limits: testLimits, NoTrace: !trace})
				if err != nil || obs.Cases[0].Runs[0].Pass == nil || !*obs.Cases[0].Runs[0].Pass {
					b.Fatal(err, obs)
				}
			}
		})
	}
}

func copyTree(tb testing.TB, src, dst string) {
	tb.Helper()
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
		tb.Fatal(err)
	}
}

// A code agent's entry runs in the sandbox with the task on its standard
// input; the judge grades what it printed.
func TestCodeAgent(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "agent", fixture(t, "code-agent"))
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if obs.Harness != "agent-code" || len(obs.Cases) != 1 {
		t.Fatalf("%+v", obs)
	}
	run := obs.Cases[0].Runs[0]
	data, _ := os.ReadFile(filepath.Join(o.Transcripts, run.Transcript+".json"))
	if run.Pass == nil || !*run.Pass || !strings.Contains(string(data), "USE THE ARTIFACT FOR ITS MAIN DOCUMENTED PURPOSE") {
		t.Fatalf("%+v: %s", run, data)
	}
	if f.Calls["driver"] != 0 {
		t.Fatalf("a code agent needs no driver: %v", f.Calls)
	}
}

// A skill that executes its input file obeys the instructions planted in
// it: the probe shows the decoy key read; the benign skill's probe (above)
// resisted.
func TestIndirectInjectionProbe(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "skill", skillWith(t, "sh /work/notes.txt"))
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.Probes) != 1 || obs.Probes[0].Class != "indirect-injection" {
		t.Fatalf("probes: %+v", obs.Probes)
	}
	// The read is seen by the file ledger (strace, which CI requires).
	if obs.Ledger.Method == "strace" && (obs.Probes[0].Outcome != behave.Concern || !strings.Contains(obs.Probes[0].Detail, "~/.ssh/id_rsa")) {
		t.Fatalf("probe: %+v", obs.Probes[0])
	}
	// The normal case did not read it: the probe's finding is its own.
	for _, s := range obs.Safety {
		if s.Severity == "fail" {
			t.Fatalf("the normal case was flagged: %+v", s)
		}
	}
}

// The same benign skill in the E2B sandbox (a local E2B whose VMs run
// under bubblewrap): the agent is uploaded with the artifact, the case
// passes, and the ledger says the network went unrecorded and why.
func TestBenignSkillOnE2B(t *testing.T) {
	sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	cloud := e2btest.Start(t, "e2b-key")
	o := options(t, &e2b.Sandbox{Key: "e2b-key", API: cloud.URL, SandboxURL: cloud.URL, Template: "base"}, f, "anthropic", "skill", fixture(t, "benign-skill"))
	o.NoProbes = true
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	run := obs.Cases[0].Runs[0]
	if run.Pass == nil || !*run.Pass {
		t.Fatalf("%+v %v", run, obs.Errors)
	}
	if obs.Ledger.Method != "none" || !strings.Contains(obs.Ledger.Note, "internet access off") {
		t.Fatalf("ledger: %+v", obs.Ledger)
	}
	if cloud.Created == 0 || cloud.Created != cloud.Deleted {
		t.Fatalf("VMs created %d, deleted %d", cloud.Created, cloud.Deleted)
	}
}

// An MCP server over Streamable HTTP, listening inside the sandbox, is
// driven through the agent's relay, and its command injection is caught.
func TestMCPStreamableHTTP(t *testing.T) {
	sb := sandbox(t)
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	o := options(t, sb, f, "anthropic", "mcp", fixture(t, "http-mcp"))
	o.Launch = []string{"python3", "/artifact/server.py"}
	o.MCPURL = "http://127.0.0.1:8765/mcp"
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if run := obs.Cases[0].Runs[0]; run.Pass == nil || !*run.Pass {
		t.Fatalf("%+v %v", run, obs.Errors)
	}
	var demo bool
	for _, p := range obs.Probes {
		demo = demo || (p.Class == "command-injection" && p.Outcome == behave.Demonstrated)
	}
	if !demo {
		t.Fatalf("probes: %+v", obs.Probes)
	}
	o.MCPURL = "http://example.com:8765/mcp"
	if obs, _ := Run(context.Background(), o); len(obs.Cases) == 0 || !strings.Contains(obs.Cases[0].Runs[0].Error, "127.0.0.1 or localhost") {
		t.Fatalf("a non-loopback URL: %+v", obs.Cases)
	}
}

// fakeIndex serves one wheel, greeterpy, as a PEP 503 simple index.
func fakeIndex(t *testing.T) string {
	t.Helper()
	var whl bytes.Buffer
	zw := zip.NewWriter(&whl)
	for name, body := range map[string]string{
		"greeterpy/__init__.py":              "def greet(n):\n    return 'hello from a wheel, ' + n\n",
		"greeterpy-1.0.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: greeterpy\nVersion: 1.0.0\n",
		"greeterpy-1.0.0.dist-info/WHEEL":    "Wheel-Version: 1.0\nGenerator: attest-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"greeterpy-1.0.0.dist-info/RECORD":   "greeterpy/__init__.py,,\ngreeterpy-1.0.0.dist-info/METADATA,,\ngreeterpy-1.0.0.dist-info/WHEEL,,\ngreeterpy-1.0.0.dist-info/RECORD,,\n",
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	sum := sha256.Sum256(whl.Bytes())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/simple/greeterpy/":
			fmt.Fprintf(w, `<html><body><a href="/files/greeterpy-1.0.0-py3-none-any.whl#sha256=%x">greeterpy-1.0.0-py3-none-any.whl</a></body></html>`, sum)
		case "/files/greeterpy-1.0.0-py3-none-any.whl":
			w.Write(whl.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	return "http://registry.test:" + port + "/simple"
}

// A Python MCP server's requirements are installed in the sandbox as
// wheels, from the index only, and the server runs on them.
func TestMCPPythonDependencies(t *testing.T) {
	sb := sandbox(t)
	if exec.Command("/usr/bin/python3", "-m", "pip", "--version").Run() != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no pip in CI (.ci/run installs python3-pip)")
		}
		t.Skip("SKIPPING: no pip")
	}
	f := modeltest.Start(t, &modeltest.Fake{Key: "k"})
	dir := fixture(t, "py-mcp")
	o := options(t, sb, f, "anthropic", "mcp", dir)
	o.Launch = LaunchFor(dir)
	o.NoProbes = true
	o.Registries = Registries{PyPI: fakeIndex(t)}
	o.Proxy = toLoopback
	obs, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	run := obs.Cases[0].Runs[0]
	data, _ := os.ReadFile(filepath.Join(o.Transcripts, run.Transcript+".json"))
	if run.Pass == nil || !*run.Pass || !strings.Contains(string(data), "hello from a wheel, hello") || len(obs.Safety) != 0 {
		t.Fatalf("%+v %v %+v: %s", run, obs.Errors, obs.Safety, data)
	}
	if len(obs.Notes) != 1 || !strings.Contains(obs.Notes[0], "--only-binary") {
		t.Fatalf("notes %v", obs.Notes)
	}
}

func TestInstallForPyproject(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"x\"\ndependencies = [\"mcp>=1.2\", \"httpx\"]\n"), 0o644)
	in, _ := InstallFor(dir, []string{"python3", "/artifact/server.py"}, Registries{})
	if in == nil || !strings.Contains(in.Script, "'mcp>=1.2' 'httpx'") || !strings.Contains(in.Script, "--only-binary=:all:") {
		t.Fatalf("%+v", in)
	}
}

// toLoopback points the egress proxy at this machine: every host resolves
// to 127.0.0.1 and is permitted, so a sandboxed install reaches the fake
// registry the test serves there.
func toLoopback(p *proxy.Proxy) {
	p.Resolve = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	p.Permit = func(netip.Addr) bool { return true }
}
