package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffCIScript runs testdata/ci/diff.sh with the built binary, as a
// pipeline would: an identical artifact exits 0 and says the digest is
// unchanged; a line with hidden Unicode exits 1 naming the regression.
func TestDiffCIScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPING: no bash")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "attest")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if out, err := exec.Command("bash", "../../testdata/ci/diff.sh", bin, samples+"/pdf-forms", work).CombinedOutput(); err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	same, _ := os.ReadFile(filepath.Join(work, "same.out"))
	if !strings.HasSuffix(string(same), "exit 0\n") || !strings.Contains(string(same), "subject digest unchanged") || !strings.Contains(string(same), "no regression") {
		t.Errorf("identical artifact:\n%s", same)
	}
	head, _ := os.ReadFile(filepath.Join(work, "head.out"))
	if !strings.HasSuffix(string(head), "exit 1\n") || !strings.Contains(string(head), "regressions (1):\n  no-hidden-unicode              pass -> fail") {
		t.Errorf("hidden Unicode added:\n%s", head)
	}
}

// TestDiffCases: a newly waived finding is not a regression; a check that
// stopped judging is; different artifacts and unreadable reports are
// exit 2; --json carries the same verdict.
func TestDiffCases(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	attestCLI(t, nil, "run", "--json", "-o", base, samples+"/unsafe-skill")
	write := func(name, config string) string {
		t.Helper()
		cfg := filepath.Join(dir, name+".config.json")
		os.WriteFile(cfg, []byte(config), 0o644)
		out := filepath.Join(dir, name+".json")
		attestCLI(t, nil, "run", "--json", "--config", cfg, "-o", out, samples+"/unsafe-skill")
		return out
	}
	waived := write("waived", `{"waivers": [{"check": "no-sensitive-files", "reason": "a generated fixture without secrets"}]}`)
	r := attestCLI(t, nil, "diff", base, waived)
	if r.code != 0 || !strings.Contains(r.stdout, "newly waived (1):") || !strings.Contains(r.stdout, "a generated fixture without secrets") {
		t.Errorf("waived: exit %d\n%s", r.code, r.stdout)
	}
	disabled := write("disabled", `{"disable": ["license-present"]}`)
	r = attestCLI(t, nil, "diff", "--json", base, disabled)
	var d struct {
		Fails          bool
		StoppedJudging []struct{ Check, From, To string }
		SameSubject    bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || r.code != 1 || !d.Fails || !d.SameSubject || len(d.StoppedJudging) != 1 || d.StoppedJudging[0].Check != "license-present" || d.StoppedJudging[0].To != "skip" {
		t.Errorf("disabled: exit %d %v %+v", r.code, err, d)
	}
	other := filepath.Join(dir, "other.json")
	attestCLI(t, nil, "run", "--json", "-o", other, samples+"/pdf-forms")
	if r := attestCLI(t, nil, "diff", base, other); r.code != 2 || !strings.Contains(r.stderr, "different artifacts") {
		t.Errorf("different artifacts: exit %d %q", r.code, r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"hello": 1}`), 0o644)
	if r := attestCLI(t, nil, "diff", base, filepath.Join(dir, "bad.json")); r.code != 2 || !strings.Contains(r.stderr, "not an attest report") {
		t.Errorf("bad report: exit %d %q", r.code, r.stderr)
	}
}
