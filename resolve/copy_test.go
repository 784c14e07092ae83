package resolve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The copy for the sandbox holds exactly the subject: not .git, with exec
// bits and symlinks as they were.
func TestCopySubject(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, ".git"), 0o755)
	os.WriteFile(filepath.Join(src, ".git", "config"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(src, "scripts"), 0o755)
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: x\ndescription: y\n---\nbody\n"), 0o644)
	os.WriteFile(filepath.Join(src, "scripts", "run.sh"), []byte("#!/bin/sh\necho hi\n"), 0o755)
	os.Symlink("scripts/run.sh", filepath.Join(src, "run"))
	dst := filepath.Join(t.TempDir(), "copy")
	s, err := Load(context.Background(), src, LoadOptions{CopyTo: dst})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, ".git")); !os.IsNotExist(err) {
		t.Fatal(".git was copied")
	}
	st, err := os.Stat(filepath.Join(dst, "scripts", "run.sh"))
	if err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("exec bit: %v %v", st, err)
	}
	if l, err := os.Readlink(filepath.Join(dst, "run")); err != nil || l != "scripts/run.sh" {
		t.Fatalf("symlink: %q %v", l, err)
	}
	again, err := Load(context.Background(), dst, LoadOptions{})
	if err != nil || again.Inventory.Digest() != s.Inventory.Digest() {
		t.Fatalf("the copy's digest differs: %v", err)
	}
}
