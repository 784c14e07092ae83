package resolve

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTargets(t *testing.T) {
	dirs := map[string]bool{"skills/pdf": true, "anthropics/skills": true}
	isDir := func(p string) bool { return dirs[p] }
	for _, c := range []struct {
		in   string
		want Target
	}{
		{".", Target{Type: TypeDir, Path: "."}},
		{"./x/y", Target{Type: TypeDir, Path: "./x/y"}},
		{"file:///tmp/x", Target{Type: TypeDir, Path: "/tmp/x"}},
		{"anthropics/skills", Target{Type: TypeDir, Path: "anthropics/skills"}}, // an existing directory wins
		{"gh:anthropics/skills", Target{Type: TypeGit, URL: "https://github.com/anthropics/skills.git"}},
		{"gh:modelcontextprotocol/servers", Target{Type: TypeGit, URL: "https://github.com/modelcontextprotocol/servers.git"}},
		{"modelcontextprotocol/servers//src/time", Target{Type: TypeGit, URL: "https://github.com/modelcontextprotocol/servers.git", Path: "src/time"}},
		{"gh:o/r#v1.2.0", Target{Type: TypeGit, URL: "https://github.com/o/r.git", Ref: "v1.2.0"}},
		{"github:o/r@main", Target{Type: TypeGit, URL: "https://github.com/o/r.git", Ref: "main"}},
		{"o/r//#v1", Target{Type: TypeGit, URL: "https://github.com/o/r.git", Ref: "v1"}},
		{"o/r//skills/pdf@9d2f1ae", Target{Type: TypeGit, URL: "https://github.com/o/r.git", Path: "skills/pdf", Ref: "9d2f1ae"}},
		{"github:o/r.git//a#feature/x", Target{Type: TypeGit, URL: "https://github.com/o/r.git", Path: "a", Ref: "feature/x"}},
		{"https://github.com/anthropics/skills/tree/main/skills/pdf", Target{Type: TypeGit, URL: "https://github.com/anthropics/skills.git", Path: "skills/pdf", Ref: "main"}},
		{"https://github.com/anthropics/skills/blob/main/skills/pdf/SKILL.md", Target{Type: TypeGit, URL: "https://github.com/anthropics/skills.git", Path: "skills/pdf", Ref: "main"}},
		{"https://github.com/anthropics/skills", Target{Type: TypeGit, URL: "https://github.com/anthropics/skills.git"}},
		{"https://git.example.org/team/x.git//sub/dir#v2", Target{Type: TypeGit, URL: "https://git.example.org/team/x.git", Path: "sub/dir", Ref: "v2"}},
		{"http://127.0.0.1:8080/x.git", Target{Type: TypeGit, URL: "http://127.0.0.1:8080/x.git"}},
		{"npm:left-pad", Target{Type: TypeNPM, Name: "left-pad"}},
		{"npm:@scope/pkg@1.2.3", Target{Type: TypeNPM, Name: "@scope/pkg", Version: "1.2.3"}},
		{"npm:@scope/pkg", Target{Type: TypeNPM, Name: "@scope/pkg"}},
		{"pypi:mcp-server-time==0.6.2", Target{Type: TypePyPI, Name: "mcp-server-time", Version: "0.6.2"}},
		{"pypi:requests", Target{Type: TypePyPI, Name: "requests"}},
		{"metahub:skill/pdf@1.2.0", Target{Type: TypeRegistry, Vendor: "metahub", Kind: "skill", Name: "pdf", Version: "1.2.0"}},
		{"registry:mcp/time", Target{Type: TypeRegistry, Vendor: "registry", Kind: "mcp", Name: "time"}},
		{"not-a-dir", Target{Type: TypeDir, Path: "not-a-dir"}},
	} {
		got, err := ParseWith(c.in, isDir)
		c.want.Raw = c.in
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", c.in, got, err, c.want)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	none := func(string) bool { return false }
	for in, want := range map[string]string{
		"":                                     "empty target",
		"anthropics/skills/skills/pdf":         "anthropics/skills//skills/pdf",
		"http://example.com/x.git":             "loopback",
		"ssh://git@github.com/o/r.git":         "only https://",
		"git@github.com:o/r.git":               "https:// URL",
		"https://user:pw@example.com/x.git":    "credentials",
		"o/r//../../etc":                       "leaves the repository",
		"gh:o/r#--upload-pack=x":               "not a branch",
		"npm:../evil":                          "npm package name",
		"pypi:x==1 2":                          "not a version",
		"registry:tool/x":                      "KIND one of",
		"metahub:skill/../x":                   "entry name",
		"https://github.com/o/r/tree/main#dev": "names its ref",
		"https://github.com/o/r/issues/1":      "page URL",
	} {
		_, err := ParseWith(in, none)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error mentioning %q", in, err, want)
		}
	}
	// A target with no explicit remote form that is no existing path is
	// an error naming both readings, never a fetch.
	for _, in := range []string{"skills/pdf", "o/r#v1.2.0", "o/r@main", "modelcontextprotocol/servers"} {
		_, err := ParseWith(in, none)
		if !errors.Is(err, ErrBadTarget) || !strings.Contains(err.Error(), "gh:"+in) || !strings.Contains(err.Error(), "./"+in) {
			t.Errorf("%q: %v, want an error naming gh:%s and ./%s", in, err, in, in)
		}
	}
	// The single-slash form names both corrections.
	_, err := ParseWith("anthropics/skills/skills/pdf", none)
	if !errors.Is(err, ErrBadTarget) || !strings.Contains(err.Error(), "./anthropics/skills/skills/pdf") {
		t.Errorf("single slash: %v", err)
	}
}

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"o/r//a#b", "npm:@a/b@1", "pypi:x==1", "https://github.com/o/r/tree/m/p", "registry:skill/x@1", "a/b/c", "http://[::1]:1/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := ParseWith(s, func(string) bool { return false })
		if err != nil {
			return
		}
		switch tg.Type {
		case TypeGit:
			if !strings.HasPrefix(tg.URL, "https://") && !strings.HasPrefix(tg.URL, "http://") {
				t.Fatalf("%q: git URL %q", s, tg.URL)
			}
			if tg.Path == ".." || strings.HasPrefix(tg.Path, "../") || strings.HasPrefix(tg.Path, "/") {
				t.Fatalf("%q: path %q leaves the repository", s, tg.Path)
			}
		case TypeDir, TypeNPM, TypePyPI, TypeRegistry:
		default:
			t.Fatalf("%q: type %q", s, tg.Type)
		}
	})
}
