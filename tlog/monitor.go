package tlog

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	rnote "github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/sigstore/pkg/signature"
	logformat "github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera/client"
	"golang.org/x/mod/sumdb/note"
)

// MaxCheckpointBytes bounds a checkpoint read from a file or a log.
const MaxCheckpointBytes = 64 << 10

// ErrSplitView marks a log that signed two trees that do not extend each
// other: two views of one log, which a monitor must report.
var ErrSplitView = errors.New("split view")

// OpenCheckpoint verifies a signed checkpoint (a C2SP signed note) with
// the log's key and parses it; origin is the log's name.
func OpenCheckpoint(signed []byte, origin string, pub crypto.PublicKey) (*logformat.Checkpoint, error) {
	if len(signed) > MaxCheckpointBytes {
		return nil, fmt.Errorf("a checkpoint over %d bytes", MaxCheckpointBytes)
	}
	v, err := signature.LoadVerifier(pub, crypto.SHA256)
	if err != nil {
		return nil, err
	}
	nv, err := rnote.NewNoteVerifier(origin, v)
	if err != nil {
		return nil, err
	}
	n, err := note.Open(signed, note.VerifierList(nv))
	if err != nil {
		return nil, fmt.Errorf("the checkpoint signature does not verify with the log key for %q: %w", origin, err)
	}
	var cp logformat.Checkpoint
	if _, err := cp.Unmarshal([]byte(n.Text)); err != nil {
		return nil, fmt.Errorf("not a checkpoint: %w", err)
	}
	if cp.Origin != origin {
		return nil, fmt.Errorf("the checkpoint is of log %q, not %q", cp.Origin, origin)
	}
	return &cp, nil
}

// CheckpointOf finds the signed checkpoint in data: a checkpoint file as
// the log serves it, or a Sigstore bundle whose log entry carries one.
func CheckpointOf(data []byte) ([]byte, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		var b struct {
			VerificationMaterial struct {
				TlogEntries []struct {
					InclusionProof struct {
						Checkpoint struct {
							Envelope string `json:"envelope"`
						} `json:"checkpoint"`
					} `json:"inclusionProof"`
				} `json:"tlogEntries"`
			} `json:"verificationMaterial"`
		}
		if err := json.Unmarshal(data, &b); err != nil {
			return nil, fmt.Errorf("neither a checkpoint nor a bundle: %w", err)
		}
		for _, e := range b.VerificationMaterial.TlogEntries {
			if env := e.InclusionProof.Checkpoint.Envelope; env != "" {
				return []byte(env), nil
			}
		}
		return nil, errors.New("the bundle carries no checkpoint")
	}
	return data, nil
}

// Consistency is what a monitor found.
type Consistency struct {
	Origin            string
	OldSize, NewSize  uint64
	OldRoot, NewRoot  []byte
	ProofHashes       int
	CurrentCheckpoint []byte
}

// CheckConsistency fetches the log's current checkpoint from baseURL,
// verifies it and the old one with the log's key, and proves that the
// current tree extends the old: a failed proof, a tree that shrank or a
// second root for the same size is ErrSplitView.
func CheckConsistency(ctx context.Context, baseURL string, old []byte, origin string, pub crypto.PublicKey, hc *http.Client) (*Consistency, error) {
	oldCP, err := OpenCheckpoint(old, origin, pub)
	if err != nil {
		return nil, fmt.Errorf("the old checkpoint: %w", err)
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, err
	}
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	f, err := client.NewHTTPFetcher(u, hc)
	if err != nil {
		return nil, err
	}
	cur, err := f.ReadCheckpoint(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the log's checkpoint: %w", err)
	}
	newCP, err := OpenCheckpoint(cur, origin, pub)
	if err != nil {
		return nil, fmt.Errorf("the log's current checkpoint: %w", err)
	}
	c := &Consistency{Origin: origin, OldSize: oldCP.Size, NewSize: newCP.Size, OldRoot: oldCP.Hash, NewRoot: newCP.Hash, CurrentCheckpoint: cur}
	switch {
	case newCP.Size < oldCP.Size:
		return c, fmt.Errorf("%w: the log now signs a tree of %d entries after one of %d", ErrSplitView, newCP.Size, oldCP.Size)
	case newCP.Size == oldCP.Size:
		if !bytes.Equal(newCP.Hash, oldCP.Hash) {
			return c, fmt.Errorf("%w: two roots signed for a tree of %d entries (%x, %x)", ErrSplitView, oldCP.Size, oldCP.Hash, newCP.Hash)
		}
		return c, nil
	}
	pb, err := client.NewProofBuilder(ctx, newCP.Size, f.ReadTile)
	if err != nil {
		return nil, err
	}
	hashes, err := pb.ConsistencyProof(ctx, oldCP.Size, newCP.Size)
	if err != nil {
		return nil, fmt.Errorf("building the consistency proof: %w", err)
	}
	c.ProofHashes = len(hashes)
	if err := proof.VerifyConsistency(rfc6962.DefaultHasher, oldCP.Size, newCP.Size, hashes, oldCP.Hash, newCP.Hash); err != nil {
		return c, fmt.Errorf("%w: the tree of %d entries does not extend the one of %d: %v", ErrSplitView, newCP.Size, oldCP.Size, err)
	}
	return c, nil
}
