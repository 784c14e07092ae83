package resolve

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Errors of remote targets.
var (
	// ErrRemote wraps a failure to fetch a remote target.
	ErrRemote = errors.New("cannot fetch")
	// ErrTooLarge is returned when a download outgrows its limit.
	ErrTooLarge = errors.New("download larger than the limit")
	// ErrEscapes is returned for a path or link that leads out of the
	// fetched tree.
	ErrEscapes = errors.New("leads out of the repository")
	// ErrNoRemote is returned for a remote target when the caller gave no
	// fetcher (LoadOptions.Remote).
	ErrNoRemote = errors.New("remote targets are not fetched here")
)

// FetchResult is what a fetcher says of the tree it wrote.
type FetchResult struct {
	Provenance Provenance `json:"provenance"`
	DirName    string     `json:"dirName"`
	CommitTime time.Time  `json:"commitTime,omitzero"`
	Kind       Kind       `json:"kind,omitempty"`    // a registry's word on the kind
	GitTree    string     `json:"gitTree,omitempty"` // the evaluated directory's tree
}

// Remote writes a remote target's tree into dir, an empty directory. The
// network code lives in resolve/remote, whose Fetch is one; resolve
// itself reaches no network.
type Remote func(ctx context.Context, t Target, dir string) (*FetchResult, error)

// fetchRemote fetches a remote target into a temporary directory, removed
// when the snapshot is closed (the run's end, Ctrl-C included).
func fetchRemote(ctx context.Context, t Target, fetch Remote) (*Snapshot, error) {
	if fetch == nil {
		return nil, fmt.Errorf("target %q is remote: %w", t.Raw, ErrNoRemote)
	}
	tmp, cleanup, err := TempDir("attest-fetch-")
	if err != nil {
		return nil, err
	}
	dir, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		cleanup()
		return nil, err
	}
	r, err := fetch(ctx, t, dir)
	if err != nil {
		cleanup()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, ErrRemote) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrRemote, err)
	}
	root, err := openTreeDir(dir)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &Snapshot{Dir: dir, Provenance: r.Provenance, DirName: r.DirName, CommitTime: r.CommitTime, Kind: r.Kind, GitTree: r.GitTree, root: root, cleanup: cleanup}, nil
}
