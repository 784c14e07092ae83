package resolve

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
)

// copySubject writes the subject's files and symlinks under dst, readable
// by anyone (the sandbox runs as an unprivileged user). A file whose bytes
// no longer match its digest is refused: it changed after it was
// evaluated.
func copySubject(snap *Snapshot, inv *Inventory, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	os.Chmod(dst, 0o755)
	mkdir := func(rel string) error {
		return os.MkdirAll(filepath.Join(dst, filepath.FromSlash(path.Dir(rel))), 0o755)
	}
	for i := range inv.Files {
		f := &inv.Files[i]
		if err := mkdir(f.Path); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if f.Exec() {
			mode = 0o755
		}
		out, err := os.OpenFile(filepath.Join(dst, filepath.FromSlash(f.Path)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		h := sha256.New()
		var src io.Reader
		if f.Scanned {
			src = bytes.NewReader(f.Content)
		} else {
			in, err := openBeneath(snap.root, f.Path)
			if err != nil {
				out.Close()
				return err
			}
			src = io.LimitReader(in, f.Size+1)
			defer in.Close()
		}
		_, err = io.Copy(io.MultiWriter(out, h), src)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if [32]byte(h.Sum(nil)) != f.SHA256 {
			return fmt.Errorf("%s changed after it was evaluated", f.Path)
		}
	}
	for _, l := range inv.Symlinks {
		if err := mkdir(l.Path); err != nil {
			return err
		}
		if err := os.Symlink(l.Target, filepath.Join(dst, filepath.FromSlash(l.Path))); err != nil {
			return err
		}
	}
	return nil
}
