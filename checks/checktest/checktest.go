// Package checktest runs checks against fixture directories in tests.
//
// A fixture is a directory copied into a temporary directory before use,
// outside any git work tree, the way a fetched tree is evaluated. Two file
// suffixes are expanded on the way, so that the repository itself holds no
// live secret and no symlink:
//
//	NAME.symlink  becomes a symlink NAME whose target is the file's text
//	NAME.gen      becomes NAME with @@PLACEHOLDERS@@ replaced by values
//	              generated at test time (see Placeholders) and @@U+XXXX@@
//	              by that code point
//	NAME.zip.d/   a directory that becomes the zip archive NAME.zip of its
//	              (expanded) contents; NAME.tar.gz.d/ likewise a .tar.gz,
//	              so archived payloads are fixtures too (a .symlink inside
//	              becomes a link member)
//
// A fixture named <status>-mcp-snapshot-<slug> or mcp-snapshot-<slug> is a
// captured MCP surface: its one JSON file is the artifact, evaluated as
// `attest run --surface FILE` evaluates it.
package checktest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

// Placeholders returns the values .gen files may use, the same on every
// call. Secret-shaped values
// are assembled here so that no scanner finds them in the repository.
func Placeholders() map[string]string {
	// A fixed seed keeps reports of fixtures byte-for-byte stable.
	seed := sha256.Sum256([]byte("attest fixture key"))
	der, err := x509.MarshalPKCS8PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err)
	}
	key := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	return map[string]string{
		"@@PRIVATE_KEY@@":       strings.TrimSuffix(key, "\n"),
		"@@AWS_KEY_ID@@":        "AK" + "IA" + "Q3EGRIZ7XKJ4MPLW",
		"@@GH_TOKEN@@":          "gh" + "p_" + "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI",
		"@@SECRET@@":            "s" + "k_live_" + "9fJ2kQ7xLmZ4pW8rT3vN6bY1",
		"@@GH_TOKEN_REVERSED@@": reverse("gh" + "p_" + "R8vq2LmT5zXc9WnB4yKd7HsJ3fGa1eQp6UoI"),
		"@@STRIPE_TEST@@":       "s" + "k_test_" + "51HqLm2eZvKYlo2C9fJ2kQ7xLmZ4pW8rT3vN6bY1",
		"@@JWT@@": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJzdWIiOiJzdmMtbGVkZ2VyLTciLCJyb2xlIjoib3BzIiwiaWF0IjoxNzE2MjM5MDIyfQ" +
			"." + "xtUV2NN6-IORn5sCtQmPgPF_di4TNmZAGUOdNKeNtUU",
	}
}

// codePoint is the @@U+XXXX@@ placeholder: hidden and bidi characters are
// written at test time so the repository itself holds none.
var codePoint = regexp.MustCompile(`@@U\+[0-9A-Fa-f]{4,6}@@`)

// Materialize copies a fixture into a fresh temporary directory of the same
// base name, expanding
// .symlink and .gen files, and returns the copy's path.
func Materialize(t testing.TB, src string) string {
	t.Helper()
	// Keep the fixture's directory name: checks compare names with it.
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	vals := Placeholders()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".symlink"):
			return os.Symlink(strings.TrimRight(string(data), "\n"), strings.TrimSuffix(target, ".symlink"))
		case strings.HasSuffix(p, ".gen"):
			s := string(data)
			for k, v := range vals {
				s = strings.ReplaceAll(s, k, v)
			}
			s = codePoint.ReplaceAllStringFunc(s, func(m string) string {
				n, _ := strconv.ParseUint(m[4:len(m)-2], 16, 32)
				return string(rune(n))
			})
			return os.WriteFile(strings.TrimSuffix(target, ".gen"), []byte(s), info.Mode().Perm())
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("materializing fixture %s: %v", src, err)
	}
	if err := packArchives(dst); err != nil {
		t.Fatalf("materializing fixture %s: %v", src, err)
	}
	return dst
}

// packArchives turns every NAME.zip.d and NAME.tar.gz.d directory under
// root into the archive NAME, innermost first so archives can nest.
func packArchives(root string) error {
	var dirs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && (strings.HasSuffix(p, ".zip.d") || strings.HasSuffix(p, ".tar.gz.d")) {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- { // WalkDir lists parents first
		dir := dirs[i]
		var buf bytes.Buffer
		var add func(name string, data []byte) error
		var link func(name, target string) error
		var closeAll func() error
		if strings.HasSuffix(dir, ".zip.d") {
			zw := zip.NewWriter(&buf)
			add = func(name string, data []byte) error {
				w, err := zw.Create(name)
				if err == nil {
					_, err = w.Write(data)
				}
				return err
			}
			link = func(name, target string) error {
				h := &zip.FileHeader{Name: name}
				h.SetMode(fs.ModeSymlink | 0o777)
				w, err := zw.CreateHeader(h)
				if err == nil {
					_, err = w.Write([]byte(target))
				}
				return err
			}
			closeAll = zw.Close
		} else {
			gz := gzip.NewWriter(&buf)
			tw := tar.NewWriter(gz)
			add = func(name string, data []byte) error {
				if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
					return err
				}
				_, err := tw.Write(data)
				return err
			}
			link = func(name, target string) error {
				return tw.WriteHeader(&tar.Header{Name: name, Linkname: target, Mode: 0o777, Typeflag: tar.TypeSymlink})
			}
			closeAll = func() error {
				if err := tw.Close(); err != nil {
					return err
				}
				return gz.Close()
			}
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// a NAME.symlink inside becomes a link member, never
				// followed here
				target, err := os.Readlink(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				return link(filepath.ToSlash(rel), target)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			return add(filepath.ToSlash(rel), data)
		})
		if err != nil {
			return err
		}
		if err := closeAll(); err != nil {
			return err
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := os.WriteFile(strings.TrimSuffix(dir, ".d"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Load materializes a fixture and loads it as a subject of the given kind.
func Load(t testing.TB, src string, kind resolve.Kind) *resolve.Subject {
	t.Helper()
	dir := Materialize(t, src)
	s, err := resolve.Load(context.Background(), dir, resolve.LoadOptions{Kind: kind})
	if err != nil {
		t.Fatalf("loading fixture %s: %v", src, err)
	}
	if IsSnapshotFixture(filepath.Base(src)) {
		if len(s.Inventory.Files) != 1 {
			t.Fatalf("snapshot fixture %s must hold exactly one file", src)
		}
		snap, err := mcp.ParseSnapshot(s.Inventory.Files[0].Content)
		if err != nil {
			t.Fatalf("snapshot fixture %s: %v", src, err)
		}
		s.Source = resolve.Provenance{Type: resolve.SourceSnapshot, URI: "mcp-snapshot:" + s.Inventory.Files[0].Path}
		surface.Attach(s, snap)
	}
	return s
}

// IsSnapshotFixture reports whether a fixture's directory name marks it
// as a captured MCP surface.
func IsSnapshotFixture(name string) bool {
	return strings.HasPrefix(name, "mcp-snapshot-") || strings.Contains(name, "-mcp-snapshot-")
}

// Run runs one check on a subject, through the same runner the CLI uses.
func Run(t testing.TB, c *checks.Check, s *resolve.Subject) checks.Result {
	t.Helper()
	cat, err := checks.NewCatalog("test", "0.0.0", []*checks.Check{c})
	if err != nil {
		t.Fatal(err)
	}
	out := checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: checks.DefaultGrants})
	if len(out) != 1 {
		t.Fatalf("check %s does not apply to kind %s", c.ID, s.Kind)
	}
	return out[0].Result
}

// Fixture is one fixture directory of a check.
type Fixture struct {
	Dir  string
	Name string
	// Want is the status the fixture names: pos/<status>-<kind>-<slug>
	// wants that status; neg/<kind>-<slug> wants pass or neutral ("").
	Want checks.Status
	Kind resolve.Kind
	Pos  bool
}

// Fixtures lists a check's fixtures under dir (checks/<id>/testdata).
func Fixtures(t testing.TB, dir string) []Fixture {
	t.Helper()
	var out []Fixture
	for _, side := range []string{"pos", "neg"} {
		entries, err := os.ReadDir(filepath.Join(dir, side))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			name := e.Name()
			f := Fixture{Dir: filepath.Join(dir, side, name), Name: side + "/" + name, Pos: side == "pos"}
			rest := name
			if f.Pos {
				st, r, _ := strings.Cut(name, "-")
				f.Want, rest = checks.Status(st), r
			}
			k, _, _ := strings.Cut(rest, "-")
			kind, err := resolve.ParseKind(k)
			if err != nil {
				t.Fatalf("fixture %s: name must be %s: %v", f.Dir, map[bool]string{true: "<status>-<kind>-<slug>", false: "<kind>-<slug>"}[f.Pos], err)
			}
			f.Kind = kind
			out = append(out, f)
		}
	}
	return out
}

// Verify runs c on every fixture of dir and fails t on a wrong status. It
// returns the number of pos and neg fixtures seen.
func Verify(t *testing.T, c *checks.Check, dir string) (pos, neg int) {
	t.Helper()
	for _, f := range Fixtures(t, dir) {
		if f.Pos {
			pos++
		} else {
			neg++
		}
		t.Run(f.Name, func(t *testing.T) {
			r := Run(t, c, Load(t, f.Dir, f.Kind))
			switch {
			case f.Pos && r.Status != f.Want:
				t.Errorf("status %s, want %s (summary: %s; evidence: %+v)", r.Status, f.Want, r.Summary, r.Evidence)
			case !f.Pos && r.Status != checks.Pass && r.Status != checks.Neutral:
				t.Errorf("status %s, want pass or neutral (summary: %s; evidence: %+v)", r.Status, r.Summary, r.Evidence)
			}
			if f.Pos {
				VerifyLines(t, f.Dir, r)
			}
		})
	}
	return pos, neg
}

// wantMarker is a line-level expectation in a fixture file, in any
// comment syntax: "want: finding" (an evidence item must be at this line)
// or "want: source" (an evidence message must name this line, as a flow's
// source).
var wantMarker = regexp.MustCompile(`want: (finding|source)\b`)

// VerifyLines holds a result to the line-level expectations of a
// fixture's files.
func VerifyLines(t testing.TB, dir string, r checks.Result) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(strings.TrimSuffix(rel, ".gen"))
		for i, ln := range strings.Split(string(data), "\n") {
			for _, m := range wantMarker.FindAllStringSubmatch(ln, -1) {
				line := i + 1
				found := false
				for _, e := range r.Evidence {
					switch m[1] {
					case "finding":
						found = found || e.Path == rel && e.Line == line
					case "source":
						found = found || strings.Contains(e.Message, fmt.Sprintf("%s:%d", rel, line))
					}
				}
				if !found {
					t.Errorf("%s:%d wants a %s there; evidence: %+v", rel, line, m[1], r.Evidence)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func reverse(s string) string {
	r := []rune(s)
	for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
		r[a], r[b] = r[b], r[a]
	}
	return string(r)
}
