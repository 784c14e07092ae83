package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/resolve"
)

// EnvSARIFSchema names the official sarif-2.1.0.json (shipped in the npm
// package @microsoft/sarif-multitool-linux, which .ci/run installs).
const EnvSARIFSchema = "ATTEST_SARIF_SCHEMA"

func sarifSchema(t *testing.T) *jsonschema.Schema {
	p := os.Getenv(EnvSARIFSchema)
	if p == "" && os.Getenv("CI") != "" {
		t.Fatal(EnvSARIFSchema + " is not set in CI: .ci/run installs the SARIF Multitool and its schema")
	}
	if p == "" {
		t.Skip("SKIPPING: set " + EnvSARIFSchema + " to the official sarif-2.1.0.json")
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AddResource("sarif-2.1.0.json", doc)
	s, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSARIF renders every golden report as SARIF (golden files), each
// valid against the official 2.1.0 schema.
func TestSARIF(t *testing.T) {
	schema := sarifSchema(t)
	files, _ := filepath.Glob("../testdata/report/*.json")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, load(t, f), SARIF, Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".sarif", b.Bytes())
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("not valid SARIF 2.1.0: %v", err)
			}
		})
	}
}

// What code scanning reads: one rule per check; a result per file
// location of each finding, with its line; safety rules ranked by
// security-severity; a waived finding suppressed with its reason.
func TestSARIFContent(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, load(t, "../testdata/report/skill-waived.json"), SARIF, Options{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID         string
						Properties map[string]any
						Help       struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID    string
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine int }
					}
				}
				Suppressions []struct{ Kind, Status, Justification string }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rep := load(t, "../testdata/report/skill-waived.json")
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.Tool.Driver.Name != "attest" || len(run.Tool.Driver.Rules) != len(rep.Results) {
		t.Fatalf("%d rules for %d results", len(run.Tool.Driver.Rules), len(rep.Results))
	}
	sev := 0
	for _, r := range run.Tool.Driver.Rules {
		if r.Properties["security-severity"] != nil {
			sev++
		}
		if r.Help.Text == "" {
			t.Errorf("%s has no help", r.ID)
		}
	}
	if sev == 0 {
		t.Error("no safety rule carries a security-severity")
	}
	suppressed, located := 0, 0
	for _, res := range run.Results {
		for _, s := range res.Suppressions {
			if s.Kind == "external" && s.Status == "accepted" && s.Justification != "" {
				suppressed++
			}
		}
		for _, l := range res.Locations {
			if l.PhysicalLocation.ArtifactLocation.URI != "" && l.PhysicalLocation.Region.StartLine > 0 {
				located++
			}
		}
	}
	waived := 0
	for _, r := range rep.Results {
		if r.Waiver != nil {
			waived++
		}
	}
	if waived == 0 || suppressed == 0 || located == 0 {
		t.Errorf("waived %d, suppressed %d, located %d", waived, suppressed, located)
	}
}

// What GitHub code scanning requires on top of the schema: every result
// located (the file concerned, else the manifest), every URI relative to
// the repository root through %SRCROOT%, a partial fingerprint on every
// result, tags on every rule.
func TestSARIFForCodeScanning(t *testing.T) {
	for _, name := range []string{"skill-fail", "mcp-python", "skill-waived", "insufficient"} {
		rep := load(t, "../testdata/report/"+name+".json")
		var b bytes.Buffer
		if err := Render(&b, rep, SARIF, Options{}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
				Tool               struct {
					Driver struct {
						Rules []struct {
							ID         string
							Properties struct{ Tags []string }
						}
					}
				}
				Results []struct {
					RuleID              string
					PartialFingerprints map[string]string
					Locations           []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI       string `json:"uri"`
								URIBaseID string `json:"uriBaseId"`
							}
						}
					}
				}
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		run := log.Runs[0]
		if _, ok := run.OriginalURIBaseIDs[SourceRoot]; !ok {
			t.Errorf("%s: no originalUriBaseIds entry for %s", name, SourceRoot)
		}
		for _, r := range run.Tool.Driver.Rules {
			if len(r.Properties.Tags) == 0 {
				t.Errorf("%s: rule %s has no tags", name, r.ID)
			}
		}
		base := sarifBase(rep)
		if base == "" {
			t.Fatalf("%s: source %q gives no base", name, rep.Subject.Source.URI)
		}
		for _, res := range run.Results {
			if len(res.Locations) == 0 {
				t.Errorf("%s: %s has no location", name, res.RuleID)
			}
			for _, l := range res.Locations {
				a := l.PhysicalLocation.ArtifactLocation
				if a.URIBaseID != SourceRoot || !strings.HasPrefix(a.URI, base+"/") {
					t.Errorf("%s: %s at %q (%s), want under %s/", name, res.RuleID, a.URI, a.URIBaseID, base)
				}
			}
			if len(res.PartialFingerprints[FingerprintKey]) != 32 {
				t.Errorf("%s: %s has no fingerprint: %v", name, res.RuleID, res.PartialFingerprints)
			}
		}
	}
}

// The base of locations: a relative directory as typed, the path inside a
// git repository; nothing for a path that leaves the working directory.
func TestSARIFBase(t *testing.T) {
	p := "skills/pdf"
	for _, c := range []struct {
		src  resolve.Provenance
		want string
	}{
		{resolve.Provenance{Type: "dir", URI: "./skills/pdf/"}, "skills/pdf"},
		{resolve.Provenance{Type: "dir", URI: "."}, ""},
		{resolve.Provenance{Type: "dir", URI: "/home/u/skills/pdf"}, ""},
		{resolve.Provenance{Type: "dir", URI: "../elsewhere"}, ""},
		{resolve.Provenance{Type: "git", URI: "https://github.com/o/r", Path: &p}, "skills/pdf"},
		{resolve.Provenance{Type: "npm", URI: "npm:x@1.0.0"}, ""},
	} {
		if got := sarifBase(&attest.Report{Subject: attest.Subject{Source: c.src}}); got != c.want {
			t.Errorf("%+v: %q, want %q", c.src, got, c.want)
		}
	}
}
