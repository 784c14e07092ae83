package resolve

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// ErrNotRegular means a path attest was to read is not a regular file: a
// FIFO, a device, a socket, a directory, or (inside a tree) a link.
var ErrNotRegular = errors.New("not a regular file")

// OpenFile opens a file attest does not own (one the user named, a
// configuration, a cache entry) for reading, without blocking: the open
// is non-blocking, so a FIFO cannot hold it, and anything but a regular
// file is refused, checked again on the opened descriptor. A link the
// user named is followed; inside an artifact nothing is (see ReadBeneath).
func OpenFile(p string) (*os.File, error) {
	if fi, err := os.Stat(p); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, notRegular(p, fi.Mode())
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(p, fi.Mode())
	}
	return f, nil
}

func notRegular(p string, m os.FileMode) error {
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case m&os.ModeSocket != 0:
		what = "a socket"
	case m&os.ModeDevice != 0:
		what = "a device"
	case m&os.ModeSymlink != 0:
		what = "a symbolic link"
	}
	return fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, what)
}

// ReadFileMax reads a local file the user named (a report, a bundle, a
// key, a configuration) of at most max bytes, refusing a larger one
// without reading it all, and anything but a regular file without
// blocking on it.
func ReadFileMax(p string, max int64) ([]byte, error) {
	f, err := OpenFile(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readMax(f, p, max)
}

func readMax(r io.Reader, name string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, max)
	}
	return b, nil
}

// Outputs being written, and the run's temporary directories, removed if
// the process is stopped before they are complete (RemovePartial), so
// that an interrupted command leaves no partial file behind.
var partial sync.Map // path → true for a directory

// Output is a file being written: at a temporary name beside its
// destination until Commit renames it into place.
type Output struct {
	*os.File
	dst    string
	done   bool
	direct bool // written in place: dst is a device or a pipe
}

// CreateOutput starts writing dst. The caller writes to the Output, then
// calls Commit; Discard (deferred) removes what Commit did not publish.
// A dst that exists and is no regular file (/dev/null, /dev/stdout, a
// pipe) is written in place, as a shell redirection would: renaming over
// it would replace the device itself.
func CreateOutput(dst string) (*Output, error) {
	if fi, err := os.Stat(dst); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f, err := os.OpenFile(dst, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &Output{File: f, dst: dst, direct: true}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(dst), ".attest-out-*")
	if err != nil {
		return nil, err
	}
	partial.Store(f.Name(), false)
	return &Output{File: f, dst: dst}, nil
}

// Commit closes the file and renames it to its destination, replacing
// any file there.
func (o *Output) Commit() error {
	if err := o.File.Close(); err != nil {
		return err
	}
	if o.direct {
		o.done = true
		return nil
	}
	if err := os.Rename(o.Name(), o.dst); err != nil {
		return err
	}
	o.done = true
	partial.Delete(o.Name())
	return nil
}

// Discard removes the temporary file unless Commit published it.
func (o *Output) Discard() {
	if o.done {
		return
	}
	o.File.Close()
	if o.direct {
		return
	}
	os.Remove(o.Name())
	partial.Delete(o.Name())
}

// CreateNew creates dst, which must not exist, for writing; the returned
// done must be called once the file is complete (or removed).
func CreateNew(dst string, perm os.FileMode) (f *os.File, done func(), err error) {
	f, err = os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, nil, err
	}
	partial.Store(dst, false)
	return f, func() { partial.Delete(dst) }, nil
}

// TempDir makes a temporary directory for the run; remove deletes it,
// as RemovePartial does if a signal ends the process first.
func TempDir(pattern string) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	partial.Store(dir, true)
	return dir, func() {
		os.RemoveAll(dir)
		partial.Delete(dir)
	}, nil
}

// RemovePartial removes every output not yet complete and every
// temporary directory not yet removed; the process calls it before it
// exits on a signal.
func RemovePartial() {
	partial.Range(func(k, isDir any) bool {
		if isDir.(bool) {
			os.RemoveAll(k.(string))
		} else {
			os.Remove(k.(string))
		}
		partial.Delete(k)
		return true
	})
}
