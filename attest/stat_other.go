//go:build !linux

package attest

import "io/fs"

// statMeta has no change time to trust here: the fingerprint fast path is
// off and every cached lookup digests the tree.
func statMeta(fs.FileInfo) (fileMeta, bool) { return fileMeta{}, false }
