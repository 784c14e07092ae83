//go:build !windows

package tlog

import (
	"context"

	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/storage/posix"
)

// storage is the log's POSIX storage: a directory holding the tiles.
func storage(ctx context.Context, dir string) (tessera.Driver, error) {
	return posix.New(ctx, posix.Config{Path: dir})
}
