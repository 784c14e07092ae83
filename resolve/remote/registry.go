package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/resolve"
)

// EnvRegistry is the base URL of the registry that registry: and
// metahub: targets resolve through.
const EnvRegistry = "ATTEST_REGISTRY"

// Entry is a registry's catalog entry for one artifact (docs/REGISTRY.md).
type Entry struct {
	Kind       string                  `json:"kind"`
	Name       string                  `json:"name"`
	Visibility string                  `json:"visibility,omitempty"` // public (default), unlisted or private
	Latest     string                  `json:"latest,omitempty"`
	Versions   map[string]EntryVersion `json:"versions,omitempty"`
}

// EntryVersion pins what one version serves: a git commit or a package
// with its integrity, and optionally signed reports of it.
type EntryVersion struct {
	Git *struct {
		URL    string `json:"url"`
		Commit string `json:"commit"`
		Path   string `json:"path,omitempty"`
		Tag    string `json:"tag,omitempty"`
	} `json:"git,omitempty"`
	NPM *struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		Integrity string `json:"integrity"`
	} `json:"npm,omitempty"`
	PyPI *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		SHA256  string `json:"sha256"`
	} `json:"pypi,omitempty"`
	Reports []string `json:"reports,omitempty"`
}

var commitRe = regexp.MustCompile(`^[0-9a-f]{40}$`)

// fetchRegistry resolves a registry entry to the exact commit or package
// it serves and fetches that; the registry is authoritative about kind.
func fetchRegistry(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	base := strings.TrimSuffix(os.Getenv(EnvRegistry), "/")
	entryName := t.Kind + "/" + t.Name
	fail := func(format string, a ...any) (*Result, error) {
		return nil, fmt.Errorf("%w %s:%s: "+format, append([]any{resolve.ErrRemote, t.Vendor, entryName}, a...)...)
	}
	if base == "" {
		return fail("set %s to the registry's base URL (https://…)", EnvRegistry)
	}
	u := base + "/v1/" + url.PathEscape(t.Kind) + "/" + url.PathEscape(t.Name) + ".json"
	doc, err := get(ctx, u, MaxMetadataBytes, "application/json")
	switch {
	case errors.Is(err, errNotFound):
		return fail("no such entry in %s", base)
	case errors.Is(err, errPrivate):
		return fail("the entry is private in %s: it exists but is not served without credentials", base)
	case err != nil:
		return fail("%w", err)
	}
	var e Entry
	if err := json.Unmarshal(doc, &e); err != nil {
		return fail("the registry's entry is not readable: %v", err)
	}
	if e.Kind != t.Kind || e.Name != t.Name {
		return fail("the registry answered with entry %s/%s", e.Kind, e.Name)
	}
	kind, err := resolve.ParseKind(e.Kind)
	if err != nil {
		return fail("%v", err)
	}
	if e.Visibility == "private" {
		return fail("the entry is private in %s", base)
	}
	version := t.Version
	if version == "" {
		version = e.Latest
	}
	v, ok := e.Versions[version]
	if !ok {
		var have []string
		for k := range e.Versions {
			have = append(have, k)
		}
		return fail("no version %q (it has: %s)", version, strings.Join(have, ", "))
	}
	var r *Result
	switch {
	case v.Git != nil:
		if !commitRe.MatchString(v.Git.Commit) {
			return fail("version %s names no exact commit (%q); a registry must pin a full commit", version, v.Git.Commit)
		}
		target := v.Git.URL + "#" + v.Git.Commit
		if v.Git.Path != "" {
			target = v.Git.URL + "//" + v.Git.Path + "#" + v.Git.Commit
		}
		gt, err := resolve.ParseWith(target, func(string) bool { return false })
		if err != nil || gt.Type != resolve.TypeGit {
			return fail("version %s names an unusable git source %q: %v", version, target, err)
		}
		r, err = fetchGitPinned(ctx, gt, dir, v.Git.Tag)
		if err != nil {
			return nil, err
		}
	case v.NPM != nil:
		if v.NPM.Integrity == "" {
			return fail("version %s names an npm package without its integrity", version)
		}
		r, err = fetchNPMPinned(ctx, resolve.Target{Type: resolve.TypeNPM, Name: v.NPM.Name, Version: v.NPM.Version}, dir, v.NPM.Integrity)
		if err != nil {
			return nil, err
		}
	case v.PyPI != nil:
		r, err = fetchPyPI(ctx, resolve.Target{Type: resolve.TypePyPI, Name: v.PyPI.Name, Version: v.PyPI.Version}, dir)
		if err != nil {
			return nil, err
		}
		if got := strings.TrimPrefix(*r.Provenance.Integrity, "sha256:"); v.PyPI.SHA256 == "" || got != strings.ToLower(v.PyPI.SHA256) {
			return nil, fmt.Errorf("%w %s:%s: %w: the registry pins sha256 %s, PyPI serves %s; nothing was evaluated", resolve.ErrRemote, t.Vendor, entryName, ErrIntegrity, v.PyPI.SHA256, got)
		}
	default:
		return fail("version %s names neither a git commit nor a package", version)
	}
	r.Provenance.Type = resolve.TypeRegistry
	r.Provenance.Registry = &resolve.Registry{URL: base, Entry: entryName + "@" + version}
	if e.Visibility == "unlisted" {
		r.Provenance.Registry.Visibility = "unlisted"
	}
	r.Kind = kind
	r.DirName = t.Name
	return r, nil
}

// RegistryHandler serves a catalog directory read-only: GET and HEAD of
// its files, JSON as JSON, no directory listings, nothing reached through
// a link out of the directory.
func RegistryHandler(dir string) (http.Handler, func() error, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	fsys := root.FS()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "read-only registry", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		st, err := fs.Stat(fsys, name)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(name, ".json") {
			w.Header().Set("Content-Type", "application/json")
			if b, err := fs.ReadFile(fsys, name); err == nil {
				var e Entry
				if json.Unmarshal(b, &e) == nil && e.Visibility == "private" {
					http.Error(w, "private entry", http.StatusForbidden)
					return
				}
			}
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeFileFS(w, r, fsys, name)
	})
	return h, root.Close, nil
}
