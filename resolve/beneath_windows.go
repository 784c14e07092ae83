package resolve

import (
	"fmt"
	"os"
	"path/filepath"
)

// On Windows a tree is read through paths checked with Lstat before each
// open: a link (a reparse point) or anything but a regular file or a
// directory is refused. Unlike the descriptor-relative walk of Unix, a
// component swapped between the check and the open is not caught; see
// SECURITY.md.

// openTreeDir opens the directory at p, the root of a tree.
func openTreeDir(p string) (*os.File, error) { return os.Open(p) }

// openDirAt opens the directory name in dir; a link is refused.
func openDirAt(dir *os.File, name string) (*os.File, error) {
	p := filepath.Join(dir.Name(), name)
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: p, Err: fmt.Errorf("not a directory (%s)", fi.Mode().Type())}
	}
	return os.Open(p)
}

// openFileAt opens the regular file name in dir.
func openFileAt(dir *os.File, name string, _ bool) (*os.File, os.FileInfo, error) {
	p := filepath.Join(dir.Name(), name)
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(p, fi.Mode())
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(p, fi.Mode())
		}
		return nil, nil, err
	}
	return f, fi, nil
}

// readlinkAt reads the link name in dir.
func readlinkAt(dir *os.File, name string) (string, error) {
	return os.Readlink(filepath.Join(dir.Name(), name))
}
