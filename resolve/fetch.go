package resolve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Errors of remote targets, also named by the attest-net helper.
var (
	// ErrRemote wraps a failure to fetch a remote target.
	ErrRemote = errors.New("cannot fetch")
	// ErrTooLarge is returned when a download outgrows its limit.
	ErrTooLarge = errors.New("download larger than the limit")
	// ErrEscapes is returned for a path or link that leads out of the
	// fetched tree.
	ErrEscapes = errors.New("leads out of the repository")
)

// FetchResult is what the attest-net helper says of the tree it fetched.
type FetchResult struct {
	Provenance Provenance `json:"provenance"`
	DirName    string     `json:"dirName"`
	CommitTime time.Time  `json:"commitTime,omitzero"`
	Kind       Kind       `json:"kind,omitempty"`    // a registry's word on the kind
	GitTree    string     `json:"gitTree,omitempty"` // the evaluated directory's tree
}

// fetchRemote has the attest-net helper fetch a remote target into a
// temporary directory, removed when the snapshot is closed (the run's end,
// Ctrl-C included).
func fetchRemote(ctx context.Context, t Target) (*Snapshot, error) {
	helper, err := NetHelper()
	if err != nil {
		return nil, fmt.Errorf("target %q is remote: %w", t.Raw, err)
	}
	tmp, err := os.MkdirTemp("", "attest-fetch-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dir, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		cleanup()
		return nil, err
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, helper, "fetch", "--out", dir, "--", t.Raw)
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		cleanup()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(errb.String()), "attest-net: "))
		if len(msg) > 2000 {
			msg = msg[:2000] + "…"
		}
		if msg == "" {
			msg = err.Error()
		}
		if strings.Contains(msg, ErrRemote.Error()) {
			return nil, fmt.Errorf("%w%s", ErrRemote, strings.TrimPrefix(msg, ErrRemote.Error()))
		}
		return nil, fmt.Errorf("%w: %s", ErrRemote, msg)
	}
	var r FetchResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		cleanup()
		return nil, fmt.Errorf("%w: the attest-net helper answered with something other than its JSON result: %v", ErrRemote, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &Snapshot{Dir: dir, Provenance: r.Provenance, DirName: r.DirName, CommitTime: r.CommitTime, Kind: r.Kind, GitTree: r.GitTree, root: root, cleanup: cleanup}, nil
}
