package policy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/metahub-ai/attest/checks"
)

func configSchema(t testing.TB) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ConfigSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AddResource("config.schema.json", doc)
	s, err := c.Compile("config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The published schema and the reader agree: both accept a full file and
// both refuse each mistake.
func TestConfigSchemaAgrees(t *testing.T) {
	s := configSchema(t)
	good := `{"waivers": [{"check": "no-sensitive-files", "reason": "a generated fixture", "expires": "2027-01-01", "paths": ["fixtures/**"]}],
		"disable": ["tests-present"], "settings": {"skill-token-footprint": {"max": 9000}}, "minScore": 70, "suite": "attest-default@1.1.0",
		"allowHosts": ["pypi.org", "*.example.com"]}`
	bad := []string{
		`{"waiver": []}`,
		`{"minScore": "80"}`,
		`{"minScore": 120}`,
		`{"waivers": [{"check": "x", "reason": "short"}]}`,
		`{"waivers": [{"reason": "no check given here"}]}`,
		`{"waivers": [{"check": "x", "reason": "long enough reason", "path": ["a"]}]}`,
		`{"disable": "tests-present"}`,
		`{"allowHosts": ["http://pypi.org"]}`,
		`{"allowHosts": ["pypi.org:443"]}`,
		`{"allowHosts": "pypi.org"}`,
		`[]`,
	}
	check := func(doc string) (schemaOK, readerOK bool) {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		schemaOK = err == nil && s.Validate(v) == nil
		_, err = ParseConfig([]byte(doc))
		return schemaOK, err == nil
	}
	if s, r := check(good); !s || !r {
		t.Errorf("good file: schema %v, reader %v", s, r)
	}
	for _, b := range bad {
		if s, r := check(b); s || r {
			t.Errorf("%s: schema accepts %v, reader accepts %v", b, s, r)
		}
	}
}

func TestSuggest(t *testing.T) {
	for word, want := range map[string]string{"waiver": "waivers", "minscore": "minScore", "disabled": "disable", "zzz": ""} {
		if got := Suggest(word, configKeys); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestDiscoverConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	os.MkdirAll(deep, 0o755)
	if p, err := DiscoverConfig(deep); err != nil || p != "" {
		t.Fatalf("none: %q %v", p, err)
	}
	os.WriteFile(filepath.Join(root, ConfigName), []byte(`{}`), 0o644)
	if p, _ := DiscoverConfig(deep); p != filepath.Join(root, ConfigName) {
		t.Errorf("found %q", p)
	}
}

// A waiver that names a finding's check but does not apply says why.
func TestNotAppliedWaivers(t *testing.T) {
	past, future := "2020-01-01", "2999-01-01"
	res := []Result{{Check: "c", Status: checks.Fail, Evidence: []checks.Evidence{
		{Type: checks.EvidenceFile, Path: "src/a.py"}, {Type: checks.EvidenceFile, Path: "vendor/b.py"}}}}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	ws := []Waiver{
		{Check: "c", Reason: "expired one", Expires: &past},
		{Check: "c", Reason: "vendored code only", Expires: &future, Paths: []string{"vendor/**"}},
		{Check: "other", Reason: "another check"},
	}
	got := NotAppliedWaivers(res, ws, now)
	if len(got) != 2 || got[0].Why != NotAppliedExpired || got[1].Why != NotAppliedPaths || strings.Join(got[1].UncoveredFiles, ",") != "src/a.py" {
		t.Fatalf("%+v", got)
	}
	res[0].Waiver = &ws[1]
	if got := NotAppliedWaivers(res, ws, now); len(got) != 0 {
		t.Errorf("a waived result: %+v", got)
	}
}

// FuzzParseConfig: the reader never panics, and what it accepts the
// schema accepts too.
func FuzzParseConfig(f *testing.F) {
	s := configSchema(f)
	f.Add([]byte(`{"waivers": [{"check": "a", "reason": "long enough reason", "paths": ["x/**"]}], "minScore": 5}`))
	f.Add([]byte(`{"disable": ["a"], "settings": {"a": 1}, "suite": "attest-default"}`))
	f.Add([]byte(`{"waiver": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParseConfig(data); err != nil {
			return
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("accepted non-JSON %q", data)
		}
		if err := s.Validate(v); err != nil {
			t.Fatalf("the reader accepts what the schema refuses: %q: %v", data, err)
		}
	})
}
