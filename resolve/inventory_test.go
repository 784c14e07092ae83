package resolve

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

func take(t testing.TB, dir string, opts Options) *Inventory {
	t.Helper()
	snap, err := Fetch(context.Background(), Target{Type: "dir", Path: dir, Raw: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	inv, err := Take(context.Background(), snap, opts)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func write(t testing.TB, root, name, content string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func TestInventoryRecordsFilesAndLinksWithoutFollowing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "SKILL.md", "skill", 0o644)
	write(t, dir, "scripts/run.sh", "#!/bin/sh\n", 0o755)
	write(t, dir, ".git/HEAD", "ref: refs/heads/main\n", 0o644)
	os.Symlink("/etc/passwd", filepath.Join(dir, "passwd"))
	os.Symlink("scripts", filepath.Join(dir, "bin"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv := take(t, dir, Options{})
	var paths []string
	for _, f := range inv.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "SKILL.md,scripts/run.sh" {
		t.Fatalf("files %v", paths)
	}
	f, _ := inv.File("scripts/run.sh")
	if !f.Exec() || f.Size != 10 || f.SHA256 != sha256.Sum256([]byte("#!/bin/sh\n")) || string(f.Content) != "#!/bin/sh\n" {
		t.Errorf("scripts/run.sh recorded as %+v", f)
	}
	if len(inv.Symlinks) != 2 || inv.Symlinks[0].Path != "bin" || inv.Symlinks[1].Target != "/etc/passwd" {
		t.Errorf("symlinks %+v", inv.Symlinks)
	}
	if _, ok := inv.File("bin/run.sh"); ok {
		t.Error("a directory symlink was followed")
	}
	want := map[string]string{".git": ReasonVCS, "pipe": ReasonNotRegular}
	for _, s := range inv.Skipped {
		if want[s.Path] != s.Reason {
			t.Errorf("skipped %s: %q", s.Path, s.Reason)
		}
		delete(want, s.Path)
	}
	if len(want) > 0 {
		t.Errorf("not listed as skipped: %v", want)
	}
}

func TestInventoryLargeFileIsDigestedNotScanned(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 50<<20)
	write(t, dir, "blob.bin", big, 0o644)
	write(t, dir, "small.txt", "hi", 0o644)
	inv := take(t, dir, Options{})
	f, _ := inv.File("blob.bin")
	if f.Scanned || f.Content != nil || f.SHA256 != sha256.Sum256([]byte(big)) {
		t.Errorf("50 MB file: scanned=%v, digest right=%v", f.Scanned, f.SHA256 == sha256.Sum256([]byte(big)))
	}
	if len(inv.Unscanned) != 1 || inv.Unscanned[0].Path != "blob.bin" || inv.Unscanned[0].Reason != ReasonScanSize {
		t.Errorf("unscanned %+v", inv.Unscanned)
	}
	// A small per-run budget leaves later files unscanned, not dropped.
	inv = take(t, dir, Options{ScanTotalBytes: 1})
	if s, _ := inv.File("small.txt"); s.Scanned || len(inv.Files) != 2 {
		t.Errorf("scan budget: small.txt scanned=%v, files=%d", s.Scanned, len(inv.Files))
	}
}

func TestInventoryLimits(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 20; i++ {
		write(t, dir, filepath.Join("d", strings.Repeat("f", i+1)), "", 0o644)
	}
	snap, _ := Fetch(context.Background(), Target{Type: "dir", Path: dir})
	defer snap.Close()
	_, err := Take(context.Background(), snap, Options{MaxFiles: 10})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 10") {
		t.Fatalf("err = %v, want ErrLimit naming the limit", err)
	}
}

func TestInventoryRejectsNonUTF8Names(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.txt", "", 0o644)
	write(t, dir, "bad\xff.txt", "", 0o644)
	snap, _ := Fetch(context.Background(), Target{Type: "dir", Path: dir})
	defer snap.Close()
	_, err := Take(context.Background(), snap, Options{})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Fatalf("err = %v", err)
	}
}

func TestInventorySymlinkLoopDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "SKILL.md", "x", 0o644)
	os.Symlink("b", filepath.Join(dir, "a"))
	os.Symlink("a", filepath.Join(dir, "b"))
	os.Symlink(".", filepath.Join(dir, "self"))
	inv := take(t, dir, Options{})
	if len(inv.Symlinks) != 3 || len(inv.Files) != 1 {
		t.Fatalf("files %d symlinks %d", len(inv.Files), len(inv.Symlinks))
	}
}

func TestFetchErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "file.txt", "x", 0o644)
	for _, tc := range []struct {
		path string
		want error
	}{{filepath.Join(dir, "missing"), ErrNotFound}, {filepath.Join(dir, "file.txt"), ErrNotDirectory}} {
		if _, err := Fetch(context.Background(), Target{Type: "dir", Path: tc.path}); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.path, err, tc.want)
		}
	}
}

// gitRepo makes a real work tree with the git CLI.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPING: git is not installed; the work-tree ignore rules are untested")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	write(t, dir, ".gitignore", "*.log\nbuild/\n", 0o644)
	write(t, dir, "skills/pdf/SKILL.md", "x", 0o644)
	write(t, dir, "skills/pdf/.gitignore", "secret.env\n", 0o644)
	write(t, dir, "skills/pdf/tracked.log", "tracked despite the rule", 0o644)
	run("add", ".gitignore", "skills/pdf/SKILL.md", "skills/pdf/.gitignore")
	run("add", "-f", "skills/pdf/tracked.log")
	run("commit", "-qm", "init")
	write(t, dir, "skills/pdf/debug.log", "untracked, ignored", 0o644)
	write(t, dir, "skills/pdf/secret.env", "untracked, ignored by the nested .gitignore", 0o644)
	write(t, dir, "skills/pdf/build/out.js", "ignored directory", 0o644)
	write(t, dir, "skills/pdf/new.md", "untracked, not ignored", 0o644)
	write(t, dir, ".git/info/exclude", "*.tmp\n", 0o644)
	write(t, dir, "skills/pdf/x.tmp", "excluded", 0o644)
	return dir
}

func TestInventoryHonoursWorkTreeIgnoresButNeverTrackedFiles(t *testing.T) {
	dir := gitRepo(t)
	defer func(p int, b int64) { eagerPatterns, eagerIndexBytes = p, b }(eagerPatterns, eagerIndexBytes)
	for _, eager := range []bool{true, false} { // index read first, or only when a pattern matches
		eagerPatterns, eagerIndexBytes = 0, 1<<20
		if !eager {
			eagerIndexBytes = 0
		}
		t.Run(fmt.Sprintf("eager-index-%v", eager), func(t *testing.T) { checkWorkTreeIgnores(t, dir) })
	}
}

func checkWorkTreeIgnores(t *testing.T, dir string) {
	inv := take(t, filepath.Join(dir, "skills", "pdf"), Options{})
	var files []string
	for _, f := range inv.Files {
		files = append(files, f.Path)
	}
	if got := strings.Join(files, ","); got != ".gitignore,SKILL.md,new.md,tracked.log" {
		t.Errorf("files %s", got)
	}
	var skipped []string
	for _, s := range inv.Skipped {
		if s.Reason != ReasonGitIgnored {
			t.Errorf("%s skipped for %q", s.Path, s.Reason)
		}
		skipped = append(skipped, s.Path)
	}
	if got := strings.Join(skipped, ","); got != "build,debug.log,secret.env,x.tmp" {
		t.Errorf("skipped %s", got)
	}
	// verify's view: no ignore rules.
	all := take(t, filepath.Join(dir, "skills", "pdf"), Options{NoIgnore: true})
	if len(all.Files) != 8 {
		t.Errorf("NoIgnore: %d files, want 8", len(all.Files))
	}
}

// TestDigestDocReferenceImplementation runs the Python reference of
// docs/DIGEST.md on a real tree and compares it with Go.
func TestDigestDocReferenceImplementation(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("SKIPPING: python3 is not installed; the reference implementation in docs/DIGEST.md is untested")
	}
	doc, err := os.ReadFile("../docs/DIGEST.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```python\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("no python block in docs/DIGEST.md")
	}
	dir := t.TempDir()
	write(t, dir, "SKILL.md", "---\nname: x\n---\n", 0o644)
	write(t, dir, "scripts/run.sh", "#!/bin/sh\n", 0o755)
	write(t, dir, "B.txt", "b", 0o644)
	os.Symlink("../scripts/run.sh", filepath.Join(dir, "docs-link"))
	os.Symlink("scripts", filepath.Join(dir, "dirlink"))
	write(t, dir, ".git/config", "x", 0o644)
	script := string(m[1]) + "\nimport sys\nprint(tree_digest(sys.argv[1]))\n"
	out, err := exec.Command(py, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), take(t, dir, Options{NoIgnore: true}).Digest(); got != want {
		t.Fatalf("reference %s, Go %s", got, want)
	}
}
