package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/behave"
)

var update = flag.Bool("update", false, "rewrite render/testdata goldens")

func load(t *testing.T, path string) *attest.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r attest.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
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
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestText renders every golden report (made by the attest package's
// tests) with no evaluation run.
func TestText(t *testing.T) {
	files, _ := filepath.Glob("../testdata/report/*.json")
	if len(files) == 0 {
		t.Fatal("no golden reports")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, load(t, f), Text, Options{}); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b.Bytes(), []byte("\x1b[")) {
				t.Error("colour without Options.Color")
			}
			golden(t, name+".txt", b.Bytes())
		})
	}
}

func TestTextVariants(t *testing.T) {
	r := load(t, "../testdata/report/skill-fail.json")
	var ascii, color bytes.Buffer
	Render(&ascii, r, Text, Options{ASCII: true})
	for _, b := range ascii.Bytes() {
		if b >= 0x80 {
			t.Fatalf("non-ASCII byte %#x under ASCII", b)
		}
	}
	golden(t, "skill-fail.ascii.txt", ascii.Bytes())
	Render(&color, r, Text, Options{Color: true})
	if !bytes.Contains(color.Bytes(), []byte("\x1b[1;31mFAIL")) {
		t.Error("no red FAIL with colour on")
	}
}

// TestTextOrderAndFloor: failures before warnings before passes; "not
// measured" for an empty axis, never 0; the coverage-floor sentence.
func TestTextOrderAndFloor(t *testing.T) {
	var b bytes.Buffer
	Render(&b, load(t, "../testdata/report/skill-fail.json"), Text, Options{})
	out := b.String()
	fail, warn, pass := strings.Index(out, "\nFAIL"), strings.Index(out, "\nWARN"), strings.Index(out, "\nPASS")
	if fail < 0 || pass < 0 || (warn >= 0 && (warn < fail || warn > pass)) || fail > pass {
		t.Errorf("order: fail %d warn %d pass %d", fail, warn, pass)
	}
	if !strings.Contains(out, "behavior   ░░░░░░░░░░░░░░░░░░░░      —  not measured") {
		t.Errorf("empty axis not shown as not measured:\n%s", out)
	}
	b.Reset()
	Render(&b, load(t, "../testdata/report/insufficient.json"), Text, Options{})
	if !strings.Contains(b.String(), NotEnoughMeasured) {
		t.Errorf("no coverage-floor sentence:\n%s", b.String())
	}
}

// TestJSONRoundTrip: JSON output decodes to the same report and re-encodes
// to the same bytes.
func TestJSONRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../testdata/report/*.json")
	for _, f := range files {
		want, _ := os.ReadFile(f)
		var b bytes.Buffer
		if err := Render(&b, load(t, f), JSON, Options{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s does not round-trip", f)
		}
	}
}

// TestArtifactStringsAreEscaped: a hostile summary cannot reach the
// terminal raw.
func TestArtifactStringsAreEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                       "plain",
		"evil\x1b[2J\x1b]0;title\a":   `evil\u{001B}[2J\u{001B}]0;title\u{0007}`,
		"admin\u202e\u2066// x\u2069": `admin\u{202E}\u{2066}// x\u{2069}`,
		"zero\u200bwidth":             `zero\u{200B}width`,
		"tag\U000E0041":               `tag\u{E0041}`,
		"multi\nline\r":               `multi\nline\u{000D}`,
		"c1\u009b31m":                 `c1\u{009B}31m`,
		"ok: ünïcödé 日本":              "ok: ünïcödé 日本",
	} {
		if got := Terminal(in); got != want {
			t.Errorf("Terminal(%q) = %q, want %q", in, got, want)
		}
	}
	r := load(t, "../testdata/report/skill-pass.json")
	r.Subject.Name = "x\x1b[31mred"
	r.Results[0].Summary = "\u202eevil"
	var b bytes.Buffer
	Render(&b, r, Text, Options{})
	if bytes.Contains(b.Bytes(), []byte("\x1b[31m")) || bytes.Contains(b.Bytes(), []byte("\u202e")) {
		t.Error("hostile strings reached the output raw")
	}
}

func FuzzTerminal(f *testing.F) {
	f.Add("a\x1b[0m\u202e\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		for _, r := range out {
			if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e || r == 0x2066 {
				t.Fatalf("Terminal(%q) kept %U", s, r)
			}
		}
	})
}

// TestMarkdownAndHTML renders every golden report as a pull-request
// comment and as a page (golden files).
func TestMarkdownAndHTML(t *testing.T) {
	files, _ := filepath.Glob("../testdata/report/*.json")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct {
				f   Format
				ext string
			}{{Markdown, ".md"}, {HTML, ".html"}} {
				var b bytes.Buffer
				if err := Render(&b, load(t, f), c.f, Options{}); err != nil {
					t.Fatal(err)
				}
				golden(t, name+c.ext, b.Bytes())
			}
		})
	}
}

// Artifact text cannot open markup in the comment or the page, nor hide
// or reorder what the reader sees.
func TestMarkupIsEscaped(t *testing.T) {
	r := load(t, "../testdata/report/skill-fail.json")
	hostile := "x](https://evil.example) <script>alert(1)</script> **b** |col| \u202eevil\u202c `tick`"
	r.Subject.Name = hostile
	r.Results[0].Summary = hostile
	var md, page bytes.Buffer
	Render(&md, r, Markdown, Options{})
	Render(&page, r, HTML, Options{})
	// Outside code spans every markup character comes escaped.
	prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(md.String(), "")
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`[^\\]\]\(https://evil`), regexp.MustCompile(`[^\\]<script`), regexp.MustCompile(`[^\\]\*\*b`), regexp.MustCompile(`[^\\]\|col`), regexp.MustCompile("\u202e")} {
		if bad.MatchString(prose) {
			t.Errorf("markdown carries %s unescaped", bad)
		}
	}
	for _, bad := range []string{"<script>", "\u202e"} {
		if strings.Contains(page.String(), bad) {
			t.Errorf("html carries %q", bad)
		}
	}
	if !strings.Contains(page.String(), `\u{202E}evil`) {
		t.Error("the page does not show the hidden override")
	}
}

// The page loads nothing from anywhere: no script, no external URL in a
// src or href, and a policy that forbids them.
func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	Render(&b, load(t, "../testdata/report/mcp-typescript.json"), HTML, Options{Verification: []Verification{{"signature", "ok", "signed by keyid abc"}}})
	s := b.String()
	if !strings.Contains(s, `default-src 'none'`) || strings.Contains(s, "<script") || strings.Contains(s, `src="http`) || strings.Contains(s, `href="http`) || strings.Contains(s, "<link") {
		t.Error("the page is not self-contained")
	}
	if !strings.Contains(s, `id="verification"`) || !strings.Contains(s, "signed by keyid abc") {
		t.Error("no verification section for a bundle")
	}
}

// The text report summarises a behavioral run, with what the artifact
// controls (case ids, probe details) made safe for a terminal.
func TestTextBehavior(t *testing.T) {
	r := load(t, "../testdata/report/skill-pass.json")
	score := 0.9
	pass := true
	r.Behavior = &behave.Observation{Kind: "skill", Harness: "skill", PassThreshold: 0.7,
		Cases: []behave.Case{{ID: "count\x1b[31m", Source: "evals/a.json", Runs: []behave.CaseRun{{Transcript: "ab", Score: &score, Pass: &pass}},
			Stats: behave.Summarize([]float64{0.9, 0.8}, []bool{true, true}, 2)}},
		Probes: []behave.Probe{{ID: "command-injection-1", Class: "command-injection", Tool: "ping", Outcome: behave.Demonstrated, Detail: "the answer holds the output"}},
		Ledger: behave.Ledger{Method: "strace", Network: []behave.NetEvent{{Host: "x", Allowed: false}}}}
	r.Environment = behave.Environment{Sandbox: &behave.SandboxRecord{Kind: "bubblewrap", Version: "bubblewrap 0.8.0", Ledger: "strace"},
		Models: map[string]behave.ModelRecord{"driver": {Provider: "anthropic", Model: "m", Temperature: 0.2, Calls: 2, InputTokens: 10, OutputTokens: 5}}}
	var b strings.Builder
	if err := Render(&b, r, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"BEHAVIOR   skill harness, bubblewrap (bubblewrap 0.8.0), ledger strace",
		"driver     anthropic m, temperature 0.2, 2 call(s), 10 tokens in, 5 out",
		"2/2 passed, mean 0.85", "probe command-injection on ping: demonstrated (the answer holds the output)",
		"1 network attempt(s), 0 allowed"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[31m") {
		t.Error("an escape sequence from a case id reached the terminal")
	}
	b.Reset()
	r.Behavior.Cases[0].ID = "x\n# Approved\n"
	if err := Render(&b, r, Markdown, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "#### Behavioral run\n\n    BEHAVIOR   skill harness") || strings.Contains(b.String(), "\n# Approved") {
		t.Errorf("markdown:\n%s", b.String())
	}
	b.Reset()
	r.Behavior.Cases[0].ID = "<script>alert(1)</script>"
	if err := Render(&b, r, HTML, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<section id="behavior"><h2>Behavioral run</h2><pre>BEHAVIOR   skill harness`) || strings.Contains(b.String(), "<script>alert") {
		t.Errorf("html: %s", b.String())
	}
}

// TestTextAllAndQuiet: --all lists every check; --quiet prints the verdict
// line alone, the same line the full report ends with.
func TestTextAllAndQuiet(t *testing.T) {
	r := load(t, "../testdata/report/skill-fail.json")
	var full, all, quiet bytes.Buffer
	for _, c := range []struct {
		w    *bytes.Buffer
		opts Options
	}{{&full, Options{}}, {&all, Options{All: true}}, {&quiet, Options{Quiet: true}}} {
		if err := Render(c.w, r, Text, c.opts); err != nil {
			t.Fatal(err)
		}
	}
	for _, res := range r.Results {
		if !strings.Contains(all.String(), " "+res.Check+" ") {
			t.Errorf("--all leaves out %s", res.Check)
		}
		listed := strings.Contains(full.String(), " "+res.Check+" (")
		if shown := res.Status != "pass" && res.Status != "neutral"; listed != shown {
			t.Errorf("%s (%s): listed %v by default", res.Check, res.Status, listed)
		}
	}
	lines := strings.Split(strings.TrimSpace(full.String()), "\n")
	if quiet.String() != lines[len(lines)-1]+"\n" || !strings.HasPrefix(quiet.String(), "FAIL: blocked by ") {
		t.Errorf("--quiet %q; the report ends with %q", quiet.String(), lines[len(lines)-1])
	}
}
