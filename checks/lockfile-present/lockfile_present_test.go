package lockfilepresent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }

// A workspace member is locked by its root's lockfile, read as context
// from outside the artifact; without that lockfile it warns.
func TestWorkspaceMember(t *testing.T) {
	root := t.TempDir()
	write := func(p, c string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "mono", "private": true, "workspaces": ["src/*"]}`)
	write("src/w/package.json", `{"name": "w", "version": "1.0.0", "bin": {"w": "index.js"}, "dependencies": {"zod": "^3.23.8"}}`)
	write("src/w/index.js", "console.log(1)\n")
	load := func() checks.Result {
		s, err := resolve.Load(t.Context(), filepath.Join(root, "src/w"), resolve.LoadOptions{Kind: resolve.KindMCP})
		if err != nil {
			t.Fatal(err)
		}
		return checktest.Run(t, Check, s)
	}
	if r := load(); r.Status != checks.Warn {
		t.Fatalf("without a root lockfile: %s %s", r.Status, r.Summary)
	}
	write("package-lock.json", `{"lockfileVersion": 3}`)
	if r := load(); r.Status != checks.Pass || !strings.Contains(r.Summary, "workspace member") {
		t.Fatalf("with a root lockfile: %s %s", r.Status, r.Summary)
	}
}
