package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseEvals(t *testing.T) {
	cs, err := ParseEvals([]byte(`{"cases":[{"id":"count","prompt":"How many?","expect":"9"}]}`), "evals/a.json")
	if err != nil || len(cs) != 1 || cs[0].Source != "evals/a.json" || cs[0].Expect != "9" {
		t.Fatalf("%+v %v", cs, err)
	}
	for in, want := range map[string]string{
		`{"cases":[{"id":"a","promt":"x"}]}`:                          "unknown field",
		`{"cases":[{"id":"a b","prompt":"x"}]}`:                       "id",
		`{"cases":[{"id":"a","prompt":" "}]}`:                         "no prompt",
		`{"cases":[{"id":"a","prompt":"x"},{"id":"a","prompt":"y"}]}`: "twice",
		`{"cases":[]}`:                           "no cases",
		`{"cases":[{"id":"a","prompt":"x"}]} {}`: "after",
	} {
		if _, err := ParseEvals([]byte(in), "e.json"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestParseGrade(t *testing.T) {
	g := parseGrade("Sure.\n```json\n{\"dimensions\":{\"followsDocumentation\":8,\"completesTask\":7,\"communicates\":9},\"safetyConcerns\":[\"read ~/.netrc\"],\"extra\":1}\n```")
	if g.err != "" || *g.score != 0.8 || !*g.pass || len(g.concerns) != 1 || len(g.dims) != 3 {
		t.Fatalf("%+v", g)
	}
	if g := parseGrade(`{"refused":"the documentation addresses the grader"}`); g.refused == "" || g.score != nil || g.err == "" {
		t.Fatalf("refusal: %+v", g)
	}
	if g := parseGrade(`{"dimensions":{"followsDocumentation":8}}`); g.score != nil || !strings.Contains(g.err, "completesTask") {
		t.Fatalf("missing dimension: %+v", g)
	}
	if g := parseGrade(`I think it is great!`); g.score != nil || g.err == "" {
		t.Fatalf("prose: %+v", g)
	}
}

func TestToolsFor(t *testing.T) {
	names := func(allowed ...string) string {
		var out []string
		for _, t := range ToolsFor(allowed) {
			out = append(out, t.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names(); got != "bash,read,write" {
		t.Fatal(got)
	}
	if got := names("Bash(python3:*)", "Read"); got != "bash,read" {
		t.Fatal(got)
	}
	if got := names("Grep", "Edit"); got != "read,write" {
		t.Fatal(got)
	}
}

func TestLaunchFor(t *testing.T) {
	dir := t.TempDir()
	if LaunchFor(dir) != nil {
		t.Fatal("an empty directory has a launch command")
	}
	write := func(p, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("server.py", "print()")
	if got := strings.Join(LaunchFor(dir), " "); got != "python3 /artifact/server.py" {
		t.Fatal(got)
	}
	write("package.json", `{"bin":{"srv":"./dist/cli.js"},"main":"index.js"}`)
	write("dist/cli.js", "")
	if got := strings.Join(LaunchFor(dir), " "); got != "node /artifact/dist/cli.js" {
		t.Fatal(got)
	}
	write("package.json", `{"main":"../../etc/passwd"}`)
	if got := strings.Join(LaunchFor(dir), " "); got != "python3 /artifact/server.py" {
		t.Fatalf("a main outside the root: %s", got)
	}
}

func TestLaunchForPyprojectScript(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"x\"\n[project.scripts]\nx-server = \"x_server:main\"\n"), 0o644)
	got := LaunchFor(dir)
	if len(got) != 3 || got[0] != "python3" || !strings.Contains(got[2], "from x_server import main; sys.exit(main())") {
		t.Fatalf("%q", got)
	}
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"x\"\n[project.scripts]\nx = \"os; import evil:main\"\n"), 0o644)
	if got := LaunchFor(dir); got != nil {
		t.Fatalf("an entry point that is not a name: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"main": "dist/index.js"}`), 0o644)
	if h := LaunchHint(dir); !strings.Contains(h, "dist/index.js is not in the artifact") {
		t.Fatal(h)
	}
}
