package remote

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/remote/gittest"
)

func TestRegistry(t *testing.T) {
	g := gittest.NewServer(t)
	var c1, c2 string
	g.Repo(t, "skills", func(w string, commit func(string) string) {
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: x\n---\none\n", 0o644)
		c1 = commit("one")
		gittest.Git(t, w, "tag", "v1")
		gittest.Put(t, w, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: x\n---\ntwo\n", 0o644)
		c2 = commit("two")
	})
	good := tgz(t, entry{name: "package/SKILL.md", body: "---\nname: pdf\n---\n"})
	npm := fakeNPM(t, "pdf-skill", map[string][]byte{"2.0.0": good}, nil)
	t.Setenv(EnvNPMRegistry, npm.URL)

	cat := t.TempDir()
	repo := g.URL + "/skills.git"
	gittest.Put(t, cat, "v1/skill/pdf.json", `{"kind": "skill", "name": "pdf", "latest": "1.0.0", "versions": {
		"1.0.0": {"git": {"url": "`+repo+`", "commit": "`+c1+`", "path": "skills/pdf", "tag": "v1"}, "reports": ["https://example.org/pdf-1.0.0.sigstore.json"]},
		"1.1.0": {"git": {"url": "`+repo+`", "commit": "`+c2+`", "path": "skills/pdf", "tag": "v1"}},
		"1.2.0": {"git": {"url": "`+repo+`", "commit": "main", "path": "skills/pdf"}},
		"2.0.0": {"npm": {"name": "pdf-skill", "version": "2.0.0", "integrity": "`+sri(good)+`"}},
		"2.0.1": {"npm": {"name": "pdf-skill", "version": "2.0.0", "integrity": "`+sri([]byte("other"))+`"}}}}`, 0o644)
	gittest.Put(t, cat, "v1/skill/quiet.json", `{"kind": "skill", "name": "quiet", "visibility": "unlisted", "latest": "1.0.0", "versions": {
		"1.0.0": {"git": {"url": "`+repo+`", "commit": "`+c1+`", "path": "skills/pdf"}}}}`, 0o644)
	gittest.Put(t, cat, "v1/mcp/secret.json", `{"kind": "mcp", "name": "secret", "visibility": "private"}`, 0o644)
	if err := os.Symlink("/etc/passwd", filepath.Join(cat, "v1", "skill", "leak.json")); err != nil {
		t.Fatal(err)
	}
	h, closeRoot, err := RegistryHandler(cat)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRoot()
	srv := httptest.NewServer(h)
	defer srv.Close()
	t.Setenv(EnvRegistry, srv.URL)

	r, dir, err := fetchTarget(t, "registry:skill/pdf")
	if err != nil {
		t.Fatal(err)
	}
	p := r.Provenance
	if p.Type != "registry" || p.Registry == nil || p.Registry.URL != srv.URL || p.Registry.Entry != "skill/pdf@1.0.0" || *p.Commit != c1 || p.URI != repo || *p.Path != "skills/pdf" || r.Kind != resolve.KindSkill {
		t.Errorf("provenance %+v registry %+v kind %s", p, p.Registry, r.Kind)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "SKILL.md")); !strings.Contains(string(b), "one") {
		t.Errorf("fetched %q, want the pinned commit's file", b)
	}
	if r, _, err := fetchTarget(t, "registry:skill/quiet"); err != nil || r.Provenance.Registry.Visibility != "unlisted" {
		t.Errorf("an unlisted entry resolves and says so: %+v %v", r, err)
	}
	if r, _, err := fetchTarget(t, "metahub:skill/pdf@2.0.0"); err != nil || r.Provenance.Type != "registry" || *r.Provenance.Integrity != sri(good) {
		t.Errorf("npm-backed entry: %+v %v", r, err)
	}
	for target, want := range map[string]string{
		"registry:skill/pdf@1.1.0": "but the repository's tag v1 is at",
		"registry:skill/pdf@1.2.0": "no exact commit",
		"registry:skill/pdf@2.0.1": "integrity mismatch",
		"registry:skill/pdf@3.0.0": "no version",
		"registry:mcp/secret":      "private",
		"registry:skill/absent":    "no such entry",
		"registry:skill/leak":      "no such entry",
	} {
		_, _, err := fetchTarget(t, target)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, resolve.ErrRemote) {
			t.Errorf("%s: %v, want %q", target, err, want)
		}
	}
	for _, c := range []struct {
		method, path string
		code         int
	}{{"POST", "/v1/skill/pdf.json", 405}, {"GET", "/v1/skill/", 404}, {"GET", "/v1/../../etc/passwd", 404}, {"GET", "/v1/skill/leak.json", 404}} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.code)
		}
	}
	t.Setenv(EnvRegistry, "")
	if _, _, err := fetchTarget(t, "registry:skill/pdf"); err == nil || !strings.Contains(err.Error(), "set ATTEST_REGISTRY") {
		t.Errorf("no registry configured: %v", err)
	}
}
