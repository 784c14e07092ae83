package resolve

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
)

// DigestDomain opens every tree digest so that it cannot collide with a
// digest of anything else. docs/DIGEST.md specifies the encoding.
const DigestDomain = "attest-tree-v1\n"

// Record types of the tree digest.
const (
	recordFile    = 'f'
	recordSymlink = 'l'
)

// Entry is one record of the tree digest.
type Entry struct {
	Path       string
	Symlink    bool
	Target     string   // symlink target
	Executable bool     // regular file
	SHA256     [32]byte // regular file contents
}

// TreeDigest computes the sha256 tree digest of docs/DIGEST.md over
// entries, which it sorts by path bytes.
func TreeDigest(entries []Entry) [32]byte {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	io.WriteString(h, DigestDomain)
	var n [4]byte
	for _, e := range sorted {
		if e.Symlink {
			h.Write([]byte{recordSymlink})
		} else {
			h.Write([]byte{recordFile})
		}
		binary.BigEndian.PutUint32(n[:], uint32(len(e.Path)))
		h.Write(n[:])
		io.WriteString(h, e.Path)
		if e.Symlink {
			binary.BigEndian.PutUint32(n[:], uint32(len(e.Target)))
			h.Write(n[:])
			io.WriteString(h, e.Target)
			continue
		}
		if e.Executable {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
		h.Write(e.SHA256[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Entries lists the inventory as digest records.
func (inv *Inventory) Entries() []Entry {
	out := make([]Entry, 0, len(inv.Files)+len(inv.Symlinks))
	for i := range inv.Files {
		f := &inv.Files[i]
		out = append(out, Entry{Path: f.Path, Executable: f.Exec(), SHA256: f.SHA256})
	}
	for _, s := range inv.Symlinks {
		out = append(out, Entry{Path: s.Path, Symlink: true, Target: s.Target})
	}
	return out
}

// Digest is the subject's tree digest in hex.
func (inv *Inventory) Digest() string {
	d := TreeDigest(inv.Entries())
	return hex.EncodeToString(d[:])
}

// DirHash is the in-toto dirHash of the regular files: Go dirhash h1
// (sha256 over "<hex sha256>  <path>\n" lines sorted by path), written in
// hex. It ignores symlinks and exec bits, so it is recorded for information
// only. A test holds it equal to golang.org/x/mod/sumdb/dirhash.Hash1.
func (inv *Inventory) DirHash() (string, error) {
	var summary bytes.Buffer
	for _, f := range inv.Files {
		if strings.Contains(f.Path, "\n") {
			return "", fmt.Errorf("dirhash: file name %q contains a newline", f.Path)
		}
		fmt.Fprintf(&summary, "%x  %s\n", f.SHA256, f.Path)
	}
	sum := sha256.Sum256(summary.Bytes())
	return hex.EncodeToString(sum[:]), nil
}
