package resolve

import (
	"bufio"
	"bytes"
	"fmt"
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

// maxIndexBytes bounds the git index read; past it nothing is ignored.
const maxIndexBytes = 256 << 20

// gitIgnore applies a local work tree's own ignore rules (.gitignore files
// and .git/info/exclude, never the user's global excludes) to the artifact.
// A tracked file is never ignored, whatever a .gitignore says: it ships.
//
// Only a work tree whose .git is a directory counts. A .git file (a
// worktree or a submodule naming its git directory elsewhere), a link or
// anything else gives no rules: following it would read, and take rules
// from, outside the tree. Every file is read through the work tree's
// descriptor without following a link (beneath.go), bounded.
type gitIgnore struct {
	top         string
	index       *os.File // open until read
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

// loadGitIgnore finds the work tree holding dir, a real path. It returns
// nil when there is none, or none whose rules can be trusted. The index,
// which says which files are tracked, is opened now and read only when a
// pattern first matches; if it cannot be read, nothing is ignored: without
// knowing which files are tracked, ignoring anything could hide a shipped
// file.
func loadGitIgnore(dir string) (*gitIgnore, error) {
	top := dir
	for {
		fi, err := os.Lstat(filepath.Join(top, ".git"))
		if err == nil {
			if !fi.IsDir() {
				return nil, nil
			}
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return nil, nil
		}
		top = parent
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil {
		return nil, nil
	}
	topDir, err := openTreeDir(top)
	if err != nil {
		return nil, nil
	}
	defer topDir.Close()
	gitDir, err := openDirAt(topDir, ".git") // a link swapped in since Lstat is refused
	if err != nil {
		return nil, nil
	}
	defer gitDir.Close()
	idx, fi, err := openFileAt(gitDir, "index", true)
	if err != nil {
		return nil, nil
	}
	g := &gitIgnore{top: top, index: idx, eager: fi.Size() <= eagerIndexBytes}
	if rel != "." {
		g.prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	if b, err := readIgnoreFile(gitDir, "info/exclude"); err == nil {
		g.add(b, nil)
	}
	// .gitignore files of the directories above the artifact, top down.
	for i := 0; i < len(g.prefix); i++ {
		if b, err := readIgnoreFile(topDir, strings.Join(append(g.prefix[:i:i], ".gitignore"), "/")); err == nil {
			g.add(b, g.prefix[:i])
		}
	}
	return g, nil
}

func readIgnoreFile(dir *os.File, rel string) ([]byte, error) {
	f, err := openBeneath(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxIgnoreFileBytes))
}

// close releases the index if it was never read.
func (g *gitIgnore) close() {
	if g.index != nil {
		g.index.Close()
		g.index = nil
	}
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

// enter reads the .gitignore of the artifact directory rel, opened as at.
func (g *gitIgnore) enter(at *os.File, rel string) {
	if b, err := readIgnoreFile(at, ".gitignore"); err == nil {
		g.add(b, g.full(rel))
	}
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
	defer g.close()
	var err error
	if g.tracked, g.trackedDirs, err = decodeIndex(io.LimitReader(g.index, maxIndexBytes)); err != nil {
		g.indexErr = true
	}
}

// decodeIndex reads the tracked files, and the directories holding them,
// from a git index. The index is the artifact's input: a decoder that
// panics on it is an error like any other.
func decodeIndex(r io.Reader) (tracked, dirs map[string]bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			tracked, dirs, err = nil, nil, fmt.Errorf("malformed git index: %v", p)
		}
	}()
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(r)).Decode(&idx); err != nil {
		return nil, nil, err
	}
	tracked, dirs = map[string]bool{}, map[string]bool{}
	for _, e := range idx.Entries {
		tracked[e.Name] = true
		for d := path.Dir(e.Name); d != "." && d != "/"; d = path.Dir(d) {
			if dirs[d] {
				break
			}
			dirs[d] = true
		}
	}
	return tracked, dirs, nil
}
