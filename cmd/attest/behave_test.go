package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model/modeltest"
)

// behaveEnv sets up a behavioral run end to end: the agent in this test binary, the
// real sandbox, a fake Anthropic API, an empty attest home.
func behaveEnv(t *testing.T) *modeltest.Fake {
	t.Helper()
	if _, err := (&behave.Bubblewrap{}).Probe(context.Background()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no sandbox in CI: %v", err)
		}
		t.Skipf("SKIPPING: %v", err)
	}
	if _, err := exec.LookPath("strace"); err != nil && os.Getenv("CI") != "" {
		t.Fatal("no strace in CI")
	}
	f := modeltest.Start(t, &modeltest.Fake{Key: "test-key"})
	for _, k := range []string{"OPENAI_API_KEY", "OPENROUTER_API_KEY", "LOCAL_LLM_BASE_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", f.URL)
	t.Setenv("ATTEST_HOME", t.TempDir())
	return f
}

type behaveReport struct {
	Grants  struct{ Sandbox, Model bool }
	Results []struct {
		Check, Status, Summary string
		Evidence               []struct{ Type, SHA256, Message string }
	}
	Behavior    *behave.Observation
	Environment struct {
		Sandbox *behave.SandboxRecord
		Models  map[string]behave.ModelRecord
	}
}

func (r behaveReport) status(check string) (string, string) {
	for _, x := range r.Results {
		if x.Check == check {
			return x.Status, x.Summary
		}
	}
	return "", ""
}

func readBehaveReport(t *testing.T, p string) behaveReport {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var r behaveReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// attest run --behavioral on a benign skill: it passes behaves-as-documented
// and behaves-safely, and the report records the sandbox, the models per
// role with their sampling parameters and tokens, and the ledgers; attest
// replay reproduces it and catches an edited transcript.
func TestRunBehavioral(t *testing.T) {
	f := behaveEnv(t)
	dir := t.TempDir()
	out, transcripts := filepath.Join(dir, "report.json"), filepath.Join(dir, "runs")
	cfg := filepath.Join(dir, "attest.json")
	os.WriteFile(cfg, []byte(`{"allowHosts": ["pypi.org"]}`), 0o644)
	res := attestCLI(t, nil, "run", "--behavioral", "--json", "--config", cfg, "--allow-host", "*.example.org", "--transcripts", transcripts, "-o", out, "../../testdata/behave/benign-skill")
	if res.code != 0 {
		t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	r := readBehaveReport(t, out)
	raw, _ := os.ReadFile(out)
	if err := validateReport(raw); err != nil {
		t.Fatalf("the behavioral report does not match the report schema: %v", err)
	}
	if s, sum := r.status("behaves-as-documented"); s != "pass" {
		t.Fatalf("behaves-as-documented %s: %s", s, sum)
	}
	if s, sum := r.status("behaves-safely"); s != "pass" {
		t.Fatalf("behaves-safely %s: %s", s, sum)
	}
	sb, models := r.Environment.Sandbox, r.Environment.Models
	if !r.Grants.Sandbox || !r.Grants.Model || sb == nil || sb.Kind != "bubblewrap" || !strings.HasPrefix(sb.Version, "bubblewrap ") || sb.Limits.Processes == 0 ||
		strings.Join(sb.AllowHosts, ",") != "*.example.org,pypi.org" {
		t.Fatalf("environment: %+v grants %+v", sb, r.Grants)
	}
	d, j := models["driver"], models["judge"]
	if d.Provider != "anthropic" || d.Calls != 4 || d.InputTokens == 0 || d.OutputTokens == 0 || d.MaxTokens == 0 ||
		j.Calls != 1 || j.Temperature != 0 || j.Temperature == d.Temperature || j.InputTokens == 0 {
		t.Fatalf("models: %+v", models)
	}
	for _, seen := range f.Requests {
		if seen.Role == "judge" && seen.Temperature != 0 {
			t.Fatalf("the judge was called with temperature %v", seen.Temperature)
		}
	}
	if r.Behavior == nil || r.Behavior.Ledger.Method != "strace" || len(r.Behavior.Ledger.Processes) == 0 {
		t.Fatalf("ledger: %+v", r.Behavior)
	}

	if res := attestCLI(t, nil, "replay", out, "--transcripts", transcripts); res.code != 0 || !strings.Contains(res.stdout, "agrees") {
		t.Fatalf("replay: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}

	// The signed behavioral report verifies against its artifact: the
	// deterministic results re-run, the behavioral ones named as not.
	key := filepath.Join(dir, "k")
	if res := attestCLI(t, nil, "keygen", "--out", key); res.code != 0 {
		t.Fatalf("keygen: %s", res.stderr)
	}
	if res := attestCLI(t, nil, "sign", "--key", key+".pem", "--out", filepath.Join(dir, "r.sigstore.json"), out); res.code != 0 {
		t.Fatalf("sign: exit %d: %s", res.code, res.stderr)
	}
	res = attestCLI(t, nil, "verify", "--key", key+".pub.pem", "--artifact", "../../testdata/behave/benign-skill", filepath.Join(dir, "r.sigstore.json"))
	if res.code != 0 || !strings.Contains(res.stdout, "behaves-as-documented") {
		t.Fatalf("verify: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(transcripts, "*.json"))
	if len(files) != 2 { // the case and the probe
		t.Fatalf("transcripts: %v", files)
	}
	caseFile := filepath.Join(transcripts, r.Behavior.Cases[0].Runs[0].Transcript+".json")
	data, _ := os.ReadFile(caseFile)
	os.WriteFile(caseFile, []byte(strings.Replace(string(data), "word", "Word", 1)), 0o644)
	if res := attestCLI(t, nil, "replay", out, "--transcripts", transcripts); res.code != 1 || !strings.Contains(res.stdout, "tampered") {
		t.Fatalf("replay of a tampered transcript: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
}

// A skill that reads ~/.ssh/id_rsa at run time and sends it away, with the
// path and the destination packed in a data table, passes the static
// checks; run in the sandbox it fails behaves-safely with ledger evidence.
func TestRunBehavioralPackedSSHReader(t *testing.T) {
	behaveEnv(t)
	static := attestCLI(t, nil, "run", "--json", "../../testdata/behave/packed-ssh-skill")
	var sr struct{ Score struct{ Verdict string } }
	if err := json.Unmarshal([]byte(static.stdout), &sr); err != nil || static.code != 0 || sr.Score.Verdict != "pass" {
		t.Fatalf("the static checks were meant to miss it: exit %d, verdict %q %v", static.code, sr.Score.Verdict, err)
	}
	res := attestCLI(t, nil, "run", "--behavioral", "--json", "../../testdata/behave/packed-ssh-skill")
	var r behaveReport
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatalf("exit %d %v: %s", res.code, err, res.stderr)
	}
	s, sum := r.status("behaves-safely")
	if res.code != 1 || s != "fail" || !strings.Contains(sum, "unsafe at run time") {
		t.Fatalf("exit %d, behaves-safely %s: %s", res.code, s, sum)
	}
	var ssh bool
	for _, x := range r.Results {
		if x.Check == "behaves-safely" {
			for _, e := range x.Evidence {
				ssh = ssh || (strings.Contains(e.Message, "~/.ssh/id_rsa") && len(e.SHA256) == 64)
			}
		}
	}
	if !ssh {
		t.Fatalf("no ledger evidence of the key read: %+v", r.Results)
	}
}

// Without a terminal and without --behavioral nothing runs, and the
// behavioral checks are skipped for want of the grants; several provider
// keys and no --provider is refused.
func TestBehavioralSelection(t *testing.T) {
	behaveEnv(t)
	res := attestCLI(t, nil, "run", "--json", "../../testdata/behave/benign-skill")
	var r behaveReport
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil || res.code != 0 {
		t.Fatalf("exit %d %v: %s", res.code, err, res.stderr)
	}
	if s, _ := r.status("behaves-as-documented"); s != "skip" || r.Behavior != nil || r.Grants.Sandbox {
		t.Fatalf("ran without --behavioral: %s %+v", s, r.Grants)
	}
	t.Setenv("OPENAI_API_KEY", "another")
	res = attestCLI(t, nil, "run", "--behavioral", "--json", "../../testdata/behave/benign-skill")
	if res.code != 2 || !strings.Contains(res.stderr, "several model providers") || !strings.Contains(res.stderr, "--provider") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if res := attestCLI(t, nil, "run", "--behavioral", "--no-behavioral", "../../testdata/behave/benign-skill"); res.code != 2 {
		t.Fatalf("contradiction accepted: %d", res.code)
	}
}

// attest setup checks the key before saving: a refused key saves nothing;
// a provider error saves with a warning; the file is mode 0600.
func TestSetup(t *testing.T) {
	f := behaveEnv(t)
	t.Setenv("ANTHROPIC_API_KEY", "")
	home := os.Getenv("ATTEST_HOME")
	setup := func(key string) result {
		var out, errb strings.Builder
		a := &app{stdin: strings.NewReader(key), stdout: &out, stderr: &errb, getenv: os.Getenv}
		code := runApp(context.Background(), a, []string{"setup", "--sandbox", "bubblewrap", "--provider", "anthropic", "--base-url", f.URL, "--key-stdin"})
		return result{code, out.String(), errb.String()}
	}
	if res := setup("wrong"); res.code != 2 || !strings.Contains(res.stderr, "refused") {
		t.Fatalf("a wrong key: exit %d: %s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "config.json")); !os.IsNotExist(err) {
		t.Fatal("a refused key was saved")
	}
	f.Down = true
	if res := setup("test-key"); res.code != 0 || !strings.Contains(res.stderr, "warning") {
		t.Fatalf("a provider outage: exit %d: %s", res.code, res.stderr)
	}
	f.Down = false
	if res := setup("test-key"); res.code != 0 || !strings.Contains(res.stderr, "accepted the key") {
		t.Fatalf("a good key: exit %d: %s", res.code, res.stderr)
	}
	st, err := os.Stat(filepath.Join(home, "config.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config: %v %v", st, err)
	}
	cfg, ok, err := behave.LoadUserConfig(filepath.Join(home, "config.json"))
	if !ok || err != nil || cfg.APIKey != "test-key" || cfg.Sandbox != "bubblewrap" {
		t.Fatalf("%+v %v %v", cfg, ok, err)
	}
	// The saved configuration alone drives a behavioral run.
	res := attestCLI(t, nil, "run", "--behavioral", "--json", "../../testdata/behave/benign-skill")
	if res.code != 0 {
		t.Fatalf("a run from the saved setup: exit %d: %s", res.code, res.stderr)
	}
}

// The rules of when the tier runs: only when asked, by the flag or the
// configuration; a saved attest setup never turns it on by itself.
func TestBehavioralWanted(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ATTEST_HOME", home)
	if err := behave.SaveUserConfig(filepath.Join(home, "config.json"), behave.UserConfig{Sandbox: "bubblewrap", Provider: "anthropic"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		on, off, config, want bool
	}{
		{want: false},              // setup saved, nothing asked
		{config: true, want: true}, // attest.json asks
		{on: true, want: true},     // forced
		{off: true, config: true},  // --no-behavioral wins
		{on: true, config: true, want: true},
	}
	for i, c := range cases {
		b := behaveFlags{on: c.on, off: c.off, repeat: 1}
		got, note, err := b.wanted(c.config)
		if err != nil || got != c.want || (got && !c.on && !strings.Contains(note, "--no-behavioral")) {
			t.Errorf("case %d %+v: %v %q %v", i, c, got, note, err)
		}
	}
	b := behaveFlags{on: true, off: true, repeat: 1}
	if _, _, err := b.wanted(false); err == nil {
		t.Error("--behavioral --no-behavioral accepted")
	}
}
