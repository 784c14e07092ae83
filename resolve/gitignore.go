package resolve

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

const maxIgnoreFileBytes = 1 << 20

// With at least eagerPatterns ignore patterns and an index of at most
// eagerIndexBytes, the index is read before any pattern is matched, so
// that tracked files (in a checkout, nearly all of them) skip the
// patterns: matching every path against a long .gitignore (145 patterns
// in modelcontextprotocol/servers) costs more than reading a small index.
// Otherwise the index is read only when a pattern first matches; a short
// .gitignore in a large repository rarely needs it. Variables so tests
// take both paths.
var (
	eagerPatterns         = 32
	eagerIndexBytes int64 = 1 << 20
)

// gitIgnore applies a local work tree's own ignore rules (.gitignore files
// and .git/info/exclude, never the user's global excludes) to the artifact.
// A tracked file is never ignored, whatever a .gitignore says: it ships.
type gitIgnore struct {
	top         string
	indexPath   string
	prefix      []string // artifact root relative to top
	tracked     map[string]bool
	trackedDirs map[string]bool
	patterns    []gitignore.Pattern
	// loaded is set once the index was read; indexErr means it could not
	// be, and then nothing is ignored.
	loaded   bool
	indexErr bool
	eager    bool
}

// loadGitIgnore finds the work tree holding dir. It returns nil when there
// is none. The index, which says which files are tracked, is read only
// when a pattern first matches; if it cannot be read, nothing is ignored:
// without knowing which files are tracked, ignoring anything could hide a
// shipped file.
func loadGitIgnore(dir string) (*gitIgnore, error) {
	top := dir
	var gitPath string
	for {
		p := filepath.Join(top, ".git")
		if _, err := os.Lstat(p); err == nil {
			gitPath = p
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return nil, nil
		}
		top = parent
	}
	gitDir := gitPath
	if fi, err := os.Stat(gitPath); err == nil && !fi.IsDir() {
		b, err := readCapped(gitPath)
		if err != nil {
			return nil, nil
		}
		ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return nil, nil
		}
		gitDir = strings.TrimSpace(ref)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
	}
	fi, err := os.Stat(filepath.Join(gitDir, "index"))
	if err != nil {
		return nil, nil
	}
	g := &gitIgnore{top: top, indexPath: filepath.Join(gitDir, "index"), eager: fi.Size() <= eagerIndexBytes}
	rel, err := filepath.Rel(top, dir)
	if err != nil {
		return nil, nil
	}
	if rel != "." {
		g.prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	if b, err := readCapped(filepath.Join(gitDir, "info", "exclude")); err == nil {
		g.add(b, nil)
	}
	// .gitignore files of the directories above the artifact, top down.
	for i := 0; i < len(g.prefix); i++ {
		d := filepath.Join(append([]string{top}, g.prefix[:i]...)...)
		if b, err := readCapped(filepath.Join(d, ".gitignore")); err == nil {
			g.add(b, g.prefix[:i])
		}
	}
	return g, nil
}

func readCapped(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
}

func (g *gitIgnore) add(data []byte, domain []string) {
	d := append([]string(nil), domain...)
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		s := strings.TrimRight(string(line), "\r")
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		g.patterns = append(g.patterns, gitignore.ParsePattern(s, d))
	}
}

// enter reads the .gitignore of an artifact directory through the root.
func (g *gitIgnore) enter(root *os.Root, rel string) {
	name := ".gitignore"
	if rel != "" {
		name = rel + "/.gitignore"
	}
	fi, err := root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	f, err := root.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
	if err != nil {
		return
	}
	g.add(b, g.full(rel))
}

func (g *gitIgnore) full(rel string) []string {
	out := append([]string(nil), g.prefix...)
	if rel != "" {
		out = append(out, strings.Split(rel, "/")...)
	}
	return out
}

func (g *gitIgnore) ignored(rel string, isDir bool) bool {
	if len(g.patterns) == 0 {
		return false
	}
	full := g.full(rel)
	key := strings.Join(full, "/")
	if g.eager && len(g.patterns) >= eagerPatterns {
		g.loadIndex()
		if g.indexErr || g.tracked[key] || isDir && g.trackedDirs[key] {
			return false
		}
	}
	if !gitignore.NewMatcher(g.patterns).Match(full, isDir) {
		return false
	}
	g.loadIndex()
	return !g.indexErr && !g.tracked[key] && !(isDir && g.trackedDirs[key])
}

func (g *gitIgnore) loadIndex() {
	if g.loaded {
		return
	}
	g.loaded = true
	f, err := os.Open(g.indexPath)
	if err != nil {
		g.indexErr = true
		return
	}
	defer f.Close()
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		g.indexErr = true
		return
	}
	g.tracked, g.trackedDirs = map[string]bool{}, map[string]bool{}
	for _, e := range idx.Entries {
		g.tracked[e.Name] = true
		for d := path.Dir(e.Name); d != "." && d != "/"; d = path.Dir(d) {
			if g.trackedDirs[d] {
				break
			}
			g.trackedDirs[d] = true
		}
	}
}
