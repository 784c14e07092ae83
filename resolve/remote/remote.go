package remote

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/metahub-ai/attest/resolve"
)

// Result is what a fetch tells resolve about the tree it wrote.
type Result struct {
	Provenance resolve.Provenance `json:"provenance"`
	DirName    string             `json:"dirName"`
	CommitTime time.Time          `json:"commitTime,omitzero"`
	Kind       resolve.Kind       `json:"kind,omitempty"` // a registry's word on the kind
}

// Fetch writes the target's tree into dir, an empty directory.
func Fetch(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	switch t.Type {
	case resolve.TypeGit:
		return fetchGit(ctx, t, dir)
	case resolve.TypeNPM:
		return fetchNPM(ctx, t, dir)
	case resolve.TypePyPI:
		return fetchPyPI(ctx, t, dir)
	}
	return nil, fmt.Errorf("target %q: %w", t.Raw, resolve.ErrUnsupportedTarget)
}

// Main is 'attest-net fetch --out DIR TARGET': it fetches TARGET into DIR
// and writes the Result as JSON on w.
func Main(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	out := fs.String("out", "", "empty directory to write the tree into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() != 1 {
		return fmt.Errorf("usage: attest-net fetch --out DIR TARGET")
	}
	t, err := resolve.ParseWith(fs.Arg(0), func(string) bool { return false })
	if err != nil {
		return err
	}
	r, err := Fetch(ctx, t, *out)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(r)
}
