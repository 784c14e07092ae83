package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/metahub-ai/attest/resolve/manifest"
)

// Workspace is read-only context from outside the subject: the enclosing
// repository's workspace root, when the artifact is one of its members. A
// member's lockfile lives at the root, so without this a monorepo member
// would look unlocked.
type Workspace struct {
	// Root is the root directory relative to the artifact ("../..").
	Root string
	// Declaration is the root file that lists the members.
	Declaration string
	// Lockfiles are the lockfiles present at the root.
	Lockfiles []string

	dir string // the root, absolute
}

// MaxWorkspaceLockfile bounds a root lockfile read through ReadLockfile.
const MaxWorkspaceLockfile = 32 << 20

// ReadLockfile reads one of the root's lockfiles, bounded in size, never
// through a link and never blocking on what is not a regular file.
func (w *Workspace) ReadLockfile(name string) ([]byte, error) {
	if !slices.Contains(w.Lockfiles, name) {
		return nil, fmt.Errorf("%s is not a lockfile of the workspace root", name)
	}
	return ReadBeneath(w.dir, name, MaxWorkspaceLockfile)
}

const (
	workspaceLevels   = 6
	workspaceMaxBytes = 1 << 20
)

var workspaceLocks = []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb",
	"uv.lock", "poetry.lock", "pdm.lock", "Cargo.lock", "go.work.sum", "go.sum"}

// FindWorkspace walks up from dir (at most six levels, never past the
// directory that holds .git) to a workspace root whose declaration covers
// dir. It reads only the root's declaration files, bounded in size.
func FindWorkspace(dir string) *Workspace {
	dir = filepath.Clean(dir)
	if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil && st != nil {
		return nil // the artifact is a repository root itself
	}
	cur := dir
	for range workspaceLevels {
		parent := filepath.Dir(cur)
		if parent == cur {
			return nil
		}
		cur = parent
		rel, err := filepath.Rel(cur, dir)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if decl, globs := declaration(cur); decl != "" && covers(globs, rel) {
			w := &Workspace{Root: filepath.ToSlash(mustRel(dir, cur)), Declaration: decl, dir: cur}
			for _, l := range workspaceLocks {
				if st, err := os.Lstat(filepath.Join(cur, l)); err == nil && st.Mode().IsRegular() {
					w.Lockfiles = append(w.Lockfiles, l)
				}
			}
			return w
		}
		if _, err := os.Stat(filepath.Join(cur, ".git")); err == nil {
			return nil
		}
	}
	return nil
}

func mustRel(from, to string) string {
	r, err := filepath.Rel(from, to)
	if err != nil {
		return to
	}
	return r
}

// readSmall reads a declaration file of dir, as ReadLockfile does.
func readSmall(dir, name string) []byte {
	b, err := ReadBeneath(dir, name, workspaceMaxBytes)
	if err != nil {
		return nil
	}
	return b
}

// declaration reads the member globs a directory declares.
func declaration(dir string) (string, []string) {
	if b := readSmall(dir, "package.json"); b != nil {
		if p, err := manifest.ParsePackageJSON(b); err == nil && len(p.Workspaces) > 0 {
			var g []string
			for _, w := range p.Workspaces {
				g = append(g, w.Value)
			}
			return "package.json", g
		}
	}
	if b := readSmall(dir, "pnpm-workspace.yaml"); b != nil {
		if root, err := manifest.ParseYAML(b); err == nil && root != nil {
			return "pnpm-workspace.yaml", yamlList(root, "packages")
		}
	}
	for _, f := range []struct{ name, key string }{{"Cargo.toml", "workspace.members"}, {"pyproject.toml", "tool.uv.workspace.members"}} {
		if b := readSmall(dir, f.name); b != nil {
			if doc, err := manifest.ParseTOML(b); err == nil {
				if list, ok := doc.Get(f.key).([]any); ok {
					var g []string
					for _, x := range list {
						if s, ok := x.(string); ok {
							g = append(g, s)
						}
					}
					return f.name, g
				}
			}
		}
	}
	if b := readSmall(dir, "go.work"); b != nil {
		var g []string
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "use"))
			line = strings.Trim(line, "()\t ")
			if strings.HasPrefix(line, "./") || strings.HasPrefix(line, "../") || line != "" && !strings.ContainsAny(line, " =") && !strings.HasPrefix(line, "go ") && !strings.HasPrefix(line, "//") {
				g = append(g, line)
			}
		}
		return "go.work", g
	}
	return "", nil
}

// covers reports whether a member glob matches rel.
func covers(globs []string, rel string) bool {
	for _, g := range globs {
		if strings.HasPrefix(g, "!") {
			continue
		}
		g = strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")
		if g == rel {
			return true
		}
		if base, ok := strings.CutSuffix(g, "/**"); ok && (rel == base || strings.HasPrefix(rel, base+"/")) {
			return true
		}
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// yamlList reads a top-level list of strings from a YAML document.
func yamlList(root *yaml.Node, key string) []string {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.SequenceNode {
			for _, c := range n.Content[i+1].Content {
				if c.Kind == yaml.ScalarNode {
					out = append(out, c.Value)
				}
			}
		}
	}
	return out
}
