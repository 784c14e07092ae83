package remote

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/remote/gittest"
)

type fetched struct {
	*Result
	Dir string
}

func TestFetchGit(t *testing.T) {
	g := gittest.NewServer(t)
	var first, second string
	g.Repo(t, "skills", func(w string, commit func(string) string) {
		gittest.Put(t, w, "README.md", "# skills\n", 0o644)
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\nv1\n", 0o644)
		first = commit("one")
		gittest.Git(t, w, "tag", "-a", "v1", "-m", "release one")
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\nv2\n", 0o644)
		gittest.Put(t, w, "skills/pdf/fill.sh", "#!/bin/sh\necho hi\n", 0o755)
		if err := os.Symlink("skills/pdf", filepath.Join(w, "alias")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/etc", filepath.Join(w, "etc-link")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../..", filepath.Join(w, "skills", "up")); err != nil {
			t.Fatal(err)
		}
		second = commit("two")
	})
	url := g.URL + "/skills.git"
	fetch := func(target string) (*fetched, error) {
		tg, err := resolve.ParseWith(target, func(string) bool { return false })
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		dir := t.TempDir()
		r, err := Fetch(context.Background(), tg, dir)
		if err != nil {
			return nil, err
		}
		return &fetched{Result: r, Dir: dir}, nil
	}
	read := func(s *fetched, p string) string {
		b, err := os.ReadFile(filepath.Join(s.Dir, p))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}

	s, err := fetch(url)
	if err != nil {
		t.Fatal(err)
	}
	if *s.Provenance.Commit != second || *s.Provenance.Ref != "main" || s.Provenance.Type != resolve.TypeGit || s.DirName != "skills" || s.CommitTime.IsZero() {
		t.Errorf("default branch: %+v commit %s ref %s", s, *s.Provenance.Commit, *s.Provenance.Ref)
	}
	if st, err := os.Stat(filepath.Join(s.Dir, "skills/pdf/fill.sh")); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("the executable bit was lost: %v", err)
	}
	if l, err := os.Readlink(filepath.Join(s.Dir, "etc-link")); err != nil || l != "/etc" {
		t.Errorf("a symlink must stay a symlink, never followed: %q %v", l, err)
	}

	for _, c := range []struct{ target, commit, path, body string }{
		{url + "#v1", first, "", "v1"},
		{url + "//skills/pdf#main", second, "skills/pdf", "v2"},
		{url + "//alias", second, "alias", "v2"}, // a link inside the repository is followed
		{url + "#" + first, first, "", "v1"},     // a full commit that is no tip
		{url + "#" + second[:9], second, "", "v2"},
	} {
		s, err := fetch(c.target)
		if err != nil {
			t.Errorf("%s: %v", c.target, err)
			continue
		}
		file := "skills/pdf/SKILL.md"
		if c.path != "" {
			file = "SKILL.md"
			if s.Provenance.Path == nil || *s.Provenance.Path != c.path {
				t.Errorf("%s: path %v", c.target, s.Provenance.Path)
			}
		}
		if *s.Provenance.Commit != c.commit || !strings.Contains(read(s, file), c.body) {
			t.Errorf("%s: commit %s, %s = %q", c.target, *s.Provenance.Commit, file, read(s, file))
		}
	}

	for target, want := range map[string]error{
		url + "//etc-link":      resolve.ErrEscapes,
		url + "//skills/up":     resolve.ErrEscapes,
		url + "#no-such-branch": resolve.ErrRemote,
		url + "//missing":       nil,
		g.URL + "/absent.git":   resolve.ErrRemote,
	} {
		_, err := fetch(target)
		if err == nil || want != nil && !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", target, err, want)
		}
	}
	if _, err := fetch(url + "#no-such-branch"); err == nil || !strings.Contains(err.Error(), "main") || !strings.Contains(err.Error(), "v1") {
		t.Errorf("a missing ref should list the refs there are: %v", err)
	}
	if _, err := fetch(g.URL + "/absent.git"); err == nil || !strings.Contains(err.Error(), "no such repository") {
		t.Errorf("a missing repository: %v", err)
	}
}

// A private repository, a missing one and no network each get their own
// message.
func TestGitErrorsSayWhatToDo(t *testing.T) {
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "auth required", http.StatusUnauthorized)
	}))
	defer private.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for target, want := range map[string]string{
		private.URL + "/x.git":   "asks for credentials",
		closedURL + "/x.git":     "cannot connect",
		private.URL + "/y.git#v": "asks for credentials",
	} {
		tg, err := resolve.ParseWith(target, func(string) bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		_, err = Fetch(context.Background(), tg, t.TempDir())
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, resolve.ErrRemote) {
			t.Errorf("%s: %v, want %q", target, err, want)
		}
	}
}

func FuzzUnpack(f *testing.F) {
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00"))
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x95\x0ax\x9c"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		unpack(memory.NewStorage(), bytes.NewReader(data))
	})
}
