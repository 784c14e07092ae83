package repo

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestActionDefinition: action.yml parses, passes every input to its
// scripts through the environment (an input expanded into a script is a
// script injection), and the README's workflow uses only inputs it has.
func TestActionDefinition(t *testing.T) {
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				Run  string
				Uses string
			}
		}
	}
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) < 3 {
		t.Fatalf("not a composite action: %+v", a.Runs)
	}
	for i, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %d expands an expression inside its script; pass it through env", i)
		}
	}
	for _, want := range []string{"target", "version", "min-score", "sarif-file", "upload-sarif", "args"} {
		if _, ok := a.Inputs[want]; !ok {
			t.Errorf("no input %q", want)
		}
	}
	readme, _ := os.ReadFile("README.md")
	block := regexp.MustCompile("uses: metahub-ai/attest@[^\\n]*\\n\\s*with:\\n((?:[ \\t]+[a-z-]+:.*\\n)+)").FindSubmatch(readme)
	if block == nil {
		t.Fatal("the README has no workflow using the action")
	}
	for _, m := range regexp.MustCompile(`(?m)^\s+([a-z-]+):`).FindAllSubmatch(block[1], -1) {
		if _, ok := a.Inputs[string(m[1])]; !ok {
			t.Errorf("the README's workflow sets %q, which the action does not have", m[1])
		}
	}
	// The action installs a pinned release binary and checks its checksum;
	// it builds nothing from source. The README pins tags, never main.
	install := ""
	for _, st := range a.Runs.Steps {
		if strings.Contains(st.Run, "releases/download") {
			install = st.Run
		}
		if strings.Contains(st.Run, "go build") || strings.Contains(st.Run, "go install") || strings.HasPrefix(st.Uses, "actions/setup-go") {
			t.Errorf("a step builds attest from source: %q %q", st.Uses, st.Run)
		}
	}
	if install == "" || !strings.Contains(install, "checksums.txt") || !strings.Contains(install, "sha256sum") {
		t.Errorf("no step installs the release binary checked against checksums.txt:\n%s", install)
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(a.Inputs["version"].Default) {
		t.Errorf("the version input defaults to %q, not a release tag", a.Inputs["version"].Default)
	}
	for _, pin := range []string{`uses: metahub-ai/attest@v\d+\.\d+\.\d+\n`, `rev: v\d+\.\d+\.\d+\n`} {
		if !regexp.MustCompile(pin).Match(readme) {
			t.Errorf("the README does not pin a tag (%s)", pin)
		}
	}
	if regexp.MustCompile(`metahub-ai/attest@main|rev: main`).Match(readme) {
		t.Error("the README references main")
	}
	hooks, _ := os.ReadFile(".pre-commit-hooks.yaml")
	var hs []struct{ ID, Entry, Language string }
	if err := yaml.Unmarshal(hooks, &hs); err != nil || len(hs) != 1 || hs[0].Entry != "attest run" || hs[0].Language != "golang" {
		t.Errorf("pre-commit hook: %v %+v", err, hs)
	}
}
