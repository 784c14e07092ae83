package attest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	manifestpresent "github.com/metahub-ai/attest/checks/manifest-present"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/render"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/report")

var clock = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

const samples = "../testdata/samples"

type goldenCase struct {
	name   string
	target string // under testdata/samples; materialized when gen
	gen    bool
	opts   attest.Options
}

func goldenCases() []goldenCase {
	future := "2027-06-30"
	only, _ := checks.NewCatalog("integrity-only", "1.0.0", []*checks.Check{manifestpresent.Check})
	return []goldenCase{
		{name: "skill-pass", target: "pdf-forms"},
		{name: "skill-fail", target: "unsafe-skill", gen: true},
		{name: "skill-waived", target: "unsafe-skill", gen: true, opts: attest.Options{Policy: policy.Config{
			Source:   "attest.json",
			Disabled: []string{"no-escaping-symlinks"},
			Waivers: []policy.Waiver{{Check: "no-sensitive-files", Reason: "throw-away deploy key for the demo environment", Expires: &future,
				Paths: []string{".env", "keys/*"}}},
		}}},
		{name: "skill-min-score", target: "pdf-forms", opts: attest.Options{Policy: policy.Config{MinScore: ptr(100.0)}}},
		{name: "mcp-python", target: "weather-py"},
		{name: "mcp-typescript", target: "weather-ts"},
		{name: "mcp-go", target: "weather-go"},
		{name: "insufficient", target: "pdf-forms", opts: attest.Options{Catalog: only}},
	}
}

func ptr[T any](v T) *T { return &v }

// evaluate runs a golden case with a fixed clock and zeroed durations, and
// the sample's path as its source, so the report is byte-for-byte stable.
func evaluate(t *testing.T, c goldenCase) *attest.Report {
	t.Helper()
	dir := filepath.Join(samples, c.target)
	if c.gen {
		dir = checktest.Materialize(t, dir)
	}
	opts := c.opts
	opts.Now, opts.ToolVersion = clock, "0.1.0"
	r, err := attest.Evaluate(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	r.Subject.Source.URI = "testdata/samples/" + c.target
	for i := range r.Results {
		r.Results[i].DurationMs = 0
	}
	return r
}

func encode(t *testing.T, r *attest.Report) []byte {
	var b bytes.Buffer
	if err := render.Render(&b, r, render.JSON, render.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenReports(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			got := encode(t, evaluate(t, c))
			path := filepath.Join("..", "testdata", "report", c.name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s; rerun with -update after reviewing:\n%s", path, firstDiff(got, want))
			}
			// Deterministic: a second run gives the same bytes.
			if again := encode(t, evaluate(t, c)); !bytes.Equal(again, got) {
				t.Errorf("two runs differ")
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n got  " + al[i] + "\n want " + bl[i]
		}
	}
	return "lengths differ"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(attest.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldenReportsValidate validates every golden report against the
// JSON Schema with a real validator.
func TestGoldenReportsValidate(t *testing.T) {
	s := compileSchema(t)
	files, _ := filepath.Glob("../testdata/report/*.json")
	if len(files) < len(goldenCases()) {
		t.Fatalf("only %d golden reports", len(files))
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSchemaRejects: the schema is not vacuous.
func TestSchemaRejects(t *testing.T) {
	s := compileSchema(t)
	base, _ := os.ReadFile("../testdata/report/skill-fail.json")
	for name, mutate := range map[string]func(map[string]any){
		"no score":        func(m map[string]any) { delete(m, "score") },
		"unknown verdict": func(m map[string]any) { m["score"].(map[string]any)["verdict"] = "great" },
		"bad digest":      func(m map[string]any) { m["subject"].(map[string]any)["digest"].(map[string]any)["sha256"] = "abc" },
		"unknown field":   func(m map[string]any) { m["trustMe"] = true },
		"skip sans reason": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"] = "skip"
			delete(r, "skipReason")
		},
		"score on a pass": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"] = "pass"
			r["score"] = 0.5
		},
		"score on a fail": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"] = "fail"
			r["score"] = 0.5
		},
		"skipReason on a pass": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"] = "pass"
			r["skipReason"] = "policy"
		},
		"file evidence sans path":       func(m map[string]any) { setEvidence(m, map[string]any{"type": "file", "line": 3}) },
		"url evidence sans url":         func(m map[string]any) { setEvidence(m, map[string]any{"type": "url", "path": "a"}) },
		"transcript evidence sans hash": func(m map[string]any) { setEvidence(m, map[string]any{"type": "transcript", "path": "a"}) },
		"metric evidence sans value":    func(m map[string]any) { setEvidence(m, map[string]any{"type": "metric", "name": "n"}) },
	} {
		var m map[string]any
		json.Unmarshal(base, &m)
		mutate(m)
		data, _ := json.Marshal(m)
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if s.Validate(v) == nil {
			t.Errorf("%s: schema accepted it", name)
		}
	}
}

// TestSchemaAccepts: what the conditionals allow (the other half of the
// minimal pairs above).
func TestSchemaAccepts(t *testing.T) {
	s := compileSchema(t)
	base, _ := os.ReadFile("../testdata/report/skill-fail.json")
	for name, mutate := range map[string]func(map[string]any){
		"score on a warn": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"] = "warn"
			r["score"] = 0.5
			delete(r, "skipReason")
		},
		"skip with reason": func(m map[string]any) {
			r := m["results"].([]any)[0].(map[string]any)
			r["status"], r["skipReason"] = "skip", "policy"
		},
		"file evidence":       func(m map[string]any) { setEvidence(m, map[string]any{"type": "file", "path": "a"}) },
		"url evidence":        func(m map[string]any) { setEvidence(m, map[string]any{"type": "url", "url": "https://example.org"}) },
		"transcript evidence": func(m map[string]any) { setEvidence(m, map[string]any{"type": "transcript", "sha256": "ab"}) },
		"metric evidence":     func(m map[string]any) { setEvidence(m, map[string]any{"type": "metric", "name": "n", "value": 3}) },
	} {
		var m map[string]any
		json.Unmarshal(base, &m)
		mutate(m)
		data, _ := json.Marshal(m)
		v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: schema rejected it: %v", name, err)
		}
	}
}

// setEvidence replaces the first result's evidence with one item.
func setEvidence(m map[string]any, e map[string]any) {
	m["results"].([]any)[0].(map[string]any)["evidence"] = []any{e}
}

// TestReportContract pins the fields consumers rely on.
func TestReportContract(t *testing.T) {
	r := evaluate(t, goldenCases()[1])
	cat, _ := suite.Default()
	if r.Score.Formula != "attest-default@1" || len(r.Subject.Digest.SHA256) != 64 || r.Suite.CatalogDigest != cat.Digest() {
		t.Errorf("contract fields: %+v %+v", r.Score, r.Suite)
	}
	if r.Score.Verdict != policy.VerdictFail || strings.Join(r.Score.Blocking, ",") != "no-escaping-symlinks,no-hardcoded-secrets,no-sensitive-files" {
		t.Errorf("unsafe skill: verdict %s blocking %v", r.Score.Verdict, r.Score.Blocking)
	}
	for _, res := range r.Results {
		if res.Check == "" || res.Axis == "" || res.Status == "" {
			t.Errorf("result missing contract fields: %+v", res)
		}
	}
}
