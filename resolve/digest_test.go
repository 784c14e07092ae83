package resolve

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

type vectorEntry struct {
	Path       string `json:"path"`
	Symlink    string `json:"symlink,omitempty"`
	Content    string `json:"content,omitempty"`
	Executable bool   `json:"executable,omitempty"`
}

type vector struct {
	Name    string        `json:"name"`
	Entries []vectorEntry `json:"entries"`
	Digest  string        `json:"digest"`
}

func loadVectors(t *testing.T) []vector {
	data, err := os.ReadFile("testdata/digest-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

func (v vector) entries() []Entry {
	var out []Entry
	for _, e := range v.Entries {
		if e.Symlink != "" {
			out = append(out, Entry{Path: e.Path, Symlink: true, Target: e.Symlink})
			continue
		}
		out = append(out, Entry{Path: e.Path, Executable: e.Executable, SHA256: sha256.Sum256([]byte(e.Content))})
	}
	return out
}

// TestDigestVectors pins the digest to the vectors of docs/DIGEST.md, and
// the document to the same vectors.
func TestDigestVectors(t *testing.T) {
	doc, err := os.ReadFile("../docs/DIGEST.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, v := range loadVectors(t) {
		d := TreeDigest(v.entries())
		got := hex.EncodeToString(d[:])
		if got != v.Digest {
			t.Errorf("%s: digest %s, want %s", v.Name, got, v.Digest)
		}
		if !strings.Contains(string(doc), v.Digest) {
			t.Errorf("%s: docs/DIGEST.md does not list the vector digest %s", v.Name, v.Digest)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%s and %s serialise alike", v.Name, other)
		}
		seen[got] = v.Name
	}
}

// TestDigestSensitivity: content, exec bits, symlinks, their targets and
// paths each change the digest; order of input does not.
func TestDigestSensitivity(t *testing.T) {
	base := []Entry{{Path: "a", SHA256: sha256.Sum256([]byte("x"))}, {Path: "b/c", SHA256: sha256.Sum256([]byte("y"))}}
	d0 := TreeDigest(base)
	variants := map[string][]Entry{
		"content":     {{Path: "a", SHA256: sha256.Sum256([]byte("X"))}, base[1]},
		"exec bit":    {{Path: "a", Executable: true, SHA256: base[0].SHA256}, base[1]},
		"extra link":  append(append([]Entry{}, base...), Entry{Path: "l", Symlink: true, Target: "a"}),
		"path":        {{Path: "A", SHA256: base[0].SHA256}, base[1]},
		"file → link": {{Path: "a", Symlink: true, Target: "b/c"}, base[1]},
		"split path":  {{Path: "a", SHA256: base[0].SHA256}, {Path: "b", SHA256: base[1].SHA256}},
	}
	for name, v := range variants {
		if TreeDigest(v) == d0 {
			t.Errorf("%s does not change the digest", name)
		}
	}
	if TreeDigest([]Entry{base[1], base[0]}) != d0 {
		t.Error("input order changes the digest")
	}
	// Length prefixes: moving bytes between a link's path and target must
	// not collide.
	if TreeDigest([]Entry{{Path: "ab", Symlink: true, Target: "c"}}) == TreeDigest([]Entry{{Path: "a", Symlink: true, Target: "bc"}}) {
		t.Error("path/target boundary is ambiguous")
	}
}

// TestDirHashMatchesReference holds DirHash to golang.org/x/mod's h1.
func TestDirHashMatchesReference(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"SKILL.md": "---\nname: x\n---\n", "scripts/run.py": "print(1)\n", "a b.txt": "space"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	os.Symlink("SKILL.md", filepath.Join(dir, "link.md"))
	inv := take(t, dir, Options{})
	got, err := inv.DirHash()
	if err != nil {
		t.Fatal(err)
	}
	h1, err := dirhash.HashDir(dir, "", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	// HashDir walks symlinks as files; the reference over regular files only:
	files := []string{"SKILL.md", "a b.txt", "scripts/run.py"}
	h1, err = dirhash.Hash1(files, func(name string) (io.ReadCloser, error) { return os.Open(filepath.Join(dir, name)) })
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(h1, "h1:"))
	if want := hex.EncodeToString(raw); got != want {
		t.Fatalf("DirHash %s, reference %s", got, want)
	}
}
