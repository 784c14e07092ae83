package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyDir copies a sample into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type configReport struct {
	Policy struct {
		Source     *string
		NotApplied []struct {
			Check, Why     string
			UncoveredFiles []string
		}
	}
	Results []struct {
		Check, Status string
		Waiver        *struct{ Reason string }
	}
}

func (r configReport) result(check string) (status string, waived bool) {
	for _, res := range r.Results {
		if res.Check == check {
			return res.Status, res.Waiver != nil
		}
	}
	return "", false
}

// TestConfigWaivers: attest.json found from the working directory up
// applies; an expired waiver no longer waives; a waiver whose paths do not
// cover the finding's files does not apply and the report names the
// files; one that covers them waives.
func TestConfigWaivers(t *testing.T) {
	root := t.TempDir()
	art := filepath.Join(root, "skill")
	copyDir(t, samples+"/unsafe-skill", art)
	t.Chdir(root)
	run := func(config string) (configReport, result) {
		t.Helper()
		os.WriteFile(filepath.Join(root, "attest.json"), []byte(config), 0o644)
		res := attestCLI(t, nil, "run", "--json", art)
		var r configReport
		if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
			t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
		}
		if err := validateReport([]byte(res.stdout)); err != nil {
			t.Errorf("schema: %v", err)
		}
		return r, res
	}

	r, res := run(`{"waivers": [{"check": "no-sensitive-files", "reason": "generated fixture, no secrets", "expires": "2020-01-01"}]}`)
	if st, waived := r.result("no-sensitive-files"); st != "fail" || waived {
		t.Errorf("expired waiver: %s waived=%v", st, waived)
	}
	if len(r.Policy.NotApplied) != 1 || r.Policy.NotApplied[0].Why != "expired" || r.Policy.Source == nil || !strings.Contains(res.stderr, "applying ") {
		t.Errorf("expired waiver: %+v %q", r.Policy, res.stderr)
	}

	r, _ = run(`{"waivers": [{"check": "no-sensitive-files", "reason": "generated fixture, no secrets", "paths": ["fixtures/**"]}]}`)
	if st, waived := r.result("no-sensitive-files"); st != "fail" || waived {
		t.Errorf("paths not covering: %s waived=%v", st, waived)
	}
	if len(r.Policy.NotApplied) != 1 || r.Policy.NotApplied[0].Why != "paths" || strings.Join(r.Policy.NotApplied[0].UncoveredFiles, ",") != ".env.gen" {
		t.Errorf("paths not covering: %+v", r.Policy.NotApplied)
	}
	text := attestCLI(t, nil, "run", art)
	if !strings.Contains(text.stdout, "waiver for no-sensitive-files not applied: its paths do not cover .env.gen") {
		t.Errorf("text report:\n%s", text.stdout)
	}

	r, _ = run(`{"waivers": [{"check": "no-sensitive-files", "reason": "generated fixture, no secrets", "paths": [".env*"]}]}`)
	if st, waived := r.result("no-sensitive-files"); st != "fail" || !waived || len(r.Policy.NotApplied) != 0 {
		t.Errorf("covering waiver: %s waived=%v %+v", st, waived, r.Policy.NotApplied)
	}
	if res := attestCLI(t, nil, "run", "--json", "--no-config", art); strings.Contains(res.stderr, "applying") || strings.Contains(res.stdout, `"waiver": {`) {
		t.Errorf("--no-config: %s", res.stderr)
	}
}

// TestConfigErrors: a typo, a wrong type, a short reason or an unknown
// check is exit 2 with what to fix.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for config, want := range map[string]string{
		`{"waiver": []}`:     `unknown key "waiver"; did you mean "waivers"?`,
		`{"minScore": "80"}`: `minScore: should be a number, not a JSON string`,
		`{"waivers": [{"check": "no-sensitive-files", "reason": "ok"}]}`:                  `at least 10 characters`,
		`{"waivers": [{"check": "no-sensitve-files", "reason": "generated fixture"}]}`:    `did you mean "no-sensitive-files"?`,
		`{"disable": ["licence-present"]}`:                                                `did you mean "license-present"?`,
		`{"waivers": [{"check": "x", "reason": "generated fixture", "expires": "soon"}]}`: `not a date`,
		`{"suite": "other-suite"}`:                                                        `written for suite "other-suite"`,
	} {
		p := filepath.Join(dir, "attest.json")
		os.WriteFile(p, []byte(config), 0o644)
		res := attestCLI(t, nil, "run", "--config", p, samples+"/pdf-forms")
		if res.code != 2 || !strings.Contains(res.stderr, want) {
			t.Errorf("%s: exit %d %q", config, res.code, res.stderr)
		}
	}
	if res := attestCLI(t, nil, "run", "--config", "x.json", "--no-config", samples+"/pdf-forms"); res.code != 2 {
		t.Errorf("--config with --no-config: exit %d", res.code)
	}
}
