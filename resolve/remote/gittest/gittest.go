// Package gittest serves git repositories made at test time over git's
// own smart-HTTP server on loopback, for tests of remote targets.
package gittest

import (
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Server serves bare repositories made at test time over git's own
// smart-HTTP server (git http-backend), on loopback.
type Server struct {
	URL  string
	root string
}

// Git runs git in dir with a fixed identity and date.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
		"GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// NewServer starts the server; the test's cleanup stops it.
func NewServer(t *testing.T) *Server {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	backend := &cgi.Handler{Path: gitBin, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"}, Stderr: io.Discard}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, root: root}
}

// Repo builds work tree w, lets build fill it, and publishes it as
// NAME.git; build commits with commit(message), which returns the new hash.
func (g *Server) Repo(t *testing.T, name string, build func(w string, commit func(msg string) string)) {
	t.Helper()
	w := t.TempDir()
	Git(t, w, "init", "-q", "-b", "main")
	commit := func(msg string) string {
		Git(t, w, "add", "-A")
		Git(t, w, "commit", "-q", "-m", msg)
		return Git(t, w, "rev-parse", "HEAD")
	}
	build(w, commit)
	bare := filepath.Join(g.root, name+".git")
	Git(t, g.root, "clone", "-q", "--bare", w, bare)
	Git(t, bare, "config", "uploadpack.allowAnySHA1InWant", "true")
}

// Put writes a file of the work tree.
func Put(t *testing.T, dir, p, content string, mode os.FileMode) {
	t.Helper()
	full := filepath.Join(dir, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}
