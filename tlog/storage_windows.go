package tlog

import (
	"context"
	"errors"

	"github.com/transparency-dev/tessera"
)

// ErrNoStorage means this platform has no storage driver for the log.
var ErrNoStorage = errors.New("the log's storage needs POSIX file locking: run 'attest log serve' on Linux or macOS (verifying a logged bundle works everywhere)")

// storage has no driver on Windows, where Tessera's POSIX storage does not
// build.
func storage(context.Context, string) (tessera.Driver, error) { return nil, ErrNoStorage }
