package resolve

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestFindWorkspace(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"package.json":             `{"name": "mono", "private": true, "workspaces": ["src/*"]}`,
		"package-lock.json":        `{}`,
		"src/a/package.json":       `{"name": "a"}`,
		"other/b/package.json":     `{"name": "b"}`,
		"crates/Cargo.toml":        "[workspace]\nmembers = [\"x/**\"]\n",
		"crates/x/y/Cargo.toml":    "[package]\nname = \"y\"\n",
		"py/pyproject.toml":        "[tool.uv.workspace]\nmembers = [\"pkgs/*\"]\n",
		"py/uv.lock":               "version = 1\n",
		"py/pkgs/p/pyproject.toml": "[project]\nname = \"p\"\n",
	})
	w := FindWorkspace(filepath.Join(root, "src/a"))
	if w == nil || w.Root != "../.." || w.Declaration != "package.json" || len(w.Lockfiles) != 1 || w.Lockfiles[0] != "package-lock.json" {
		t.Fatalf("npm member: %+v", w)
	}
	if b, err := w.ReadLockfile("package-lock.json"); err != nil || string(b) != "{}" {
		t.Errorf("reading the root lockfile: %q %v", b, err)
	}
	if _, err := w.ReadLockfile("package.json"); err == nil {
		t.Error("read a file that is not a root lockfile")
	}
	if w := FindWorkspace(filepath.Join(root, "other/b")); w != nil {
		t.Errorf("a directory outside the globs is no member: %+v", w)
	}
	if w := FindWorkspace(filepath.Join(root, "crates/x/y")); w == nil || w.Declaration != "Cargo.toml" || len(w.Lockfiles) != 0 {
		t.Errorf("cargo member without a lock: %+v", w)
	}
	if w := FindWorkspace(filepath.Join(root, "py/pkgs/p")); w == nil || w.Lockfiles[0] != "uv.lock" {
		t.Errorf("uv member: %+v", w)
	}
	// The walk stops at a repository root.
	if err := os.Mkdir(filepath.Join(root, "src", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if w := FindWorkspace(filepath.Join(root, "src/a")); w != nil {
		t.Errorf("walked past .git: %+v", w)
	}
}
