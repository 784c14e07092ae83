package resolve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ErrNotFound means the target does not exist.
var ErrNotFound = errors.New("no such file or directory")

// ErrNotDirectory means the target exists but is not a directory.
var ErrNotDirectory = errors.New("not a directory")

// Provenance records where a snapshot came from (the report's subject.source).
// SourceSnapshot is the provenance type of a captured MCP surface
// evaluated on its own (attest run --surface FILE): the snapshot file is
// the whole artifact, and the URI reads mcp-snapshot:PATH.
const SourceSnapshot = "snapshot"

type Provenance struct {
	Type      string    `json:"type"`
	URI       string    `json:"uri"`
	Path      *string   `json:"path"`
	Ref       *string   `json:"ref"`
	Commit    *string   `json:"commit"`
	Integrity *string   `json:"integrity"`
	Registry  *Registry `json:"registry"`
}

// Registry names the registry entry a target was resolved through.
type Registry struct {
	URL   string `json:"url"`
	Entry string `json:"entry"`
	// Visibility is "unlisted" for an entry the registry serves by name
	// but leaves out of its listings; omitted for a public one.
	Visibility string `json:"visibility,omitempty"`
}

// Snapshot is a read-only view of an artifact tree.
type Snapshot struct {
	// Dir is the real path of the artifact root.
	Dir        string
	Provenance Provenance
	// DirName names the artifact directory when Dir is a temporary
	// checkout ("" means the base of Dir).
	DirName string
	// CommitTime is the resolved commit's time for a git target.
	CommitTime time.Time
	// Kind is the kind a registry declares for the entry ("" otherwise).
	Kind Kind
	// GitTree is the git tree hash of the evaluated directory, for a
	// target fetched from git.
	GitTree string
	// root is the artifact root's directory: every read of the tree
	// goes through it (beneath.go).
	root    *os.File
	cleanup func()
}

// Close releases the snapshot and removes a temporary checkout.
func (s *Snapshot) Close() error {
	if s == nil {
		return nil
	}
	var err error
	if s.root != nil {
		err = s.root.Close()
	}
	if s.cleanup != nil {
		s.cleanup()
		s.cleanup = nil
	}
	return err
}

// Fetch opens a local target as a snapshot; a remote target needs
// FetchWith.
func Fetch(ctx context.Context, t Target) (*Snapshot, error) { return FetchWith(ctx, t, nil) }

// FetchWith opens the target as a snapshot, fetching a remote one with
// remote.
func FetchWith(ctx context.Context, t Target, remote Remote) (*Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch t.Type {
	case TypeDir:
		return openDir(t)
	case TypeGit, TypeNPM, TypePyPI, TypeRegistry:
		return fetchRemote(ctx, t, remote)
	}
	return nil, fmt.Errorf("target %q: %w", t.Raw, ErrUnsupportedTarget)
}

func openDir(t Target) (*Snapshot, error) {
	fi, err := os.Stat(t.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("opening %q: %w", t.Path, ErrNotFound)
		}
		return nil, fmt.Errorf("opening %q: %w", t.Path, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("opening %q: %w: attest evaluates an artifact directory; pass the directory that holds it", t.Path, ErrNotDirectory)
	}
	// The root itself may be reached through a symlink the user typed; what
	// must never be followed is a link inside the artifact.
	real, err := filepath.EvalSymlinks(t.Path)
	if err != nil {
		return nil, fmt.Errorf("opening %q: %w", t.Path, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, fmt.Errorf("opening %q: %w", t.Path, err)
	}
	root, err := openTreeDir(real)
	if err != nil {
		return nil, fmt.Errorf("opening %q: %w", t.Path, err)
	}
	return &Snapshot{
		Dir:        real,
		root:       root,
		Provenance: Provenance{Type: "dir", URI: filepath.ToSlash(filepath.Clean(t.Path))},
	}, nil
}
