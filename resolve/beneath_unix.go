//go:build unix

package resolve

import (
	"os"

	"golang.org/x/sys/unix"
)

// Reading inside a tree attest does not own: the artifact, and the work
// tree or workspace around a local one. Every component is opened
// relative to its parent's descriptor with O_NOFOLLOW, so no link is
// followed at any depth and nothing outside the tree is reached (os.Root
// confines too, but follows the links that stay inside it). A file is
// opened non-blocking, so that a FIFO cannot hold the open, and kept only
// when the opened descriptor is a regular file.

const (
	dirFlags  = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
	fileFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
)

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// withFD runs f with dir's descriptor.
func withFD(dir *os.File, f func(fd int) error) error {
	rc, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = f(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// openTreeDir opens the directory at p, the root of a tree: a path the
// user named or attest resolved (the artifact root, a directory above
// it), so a link to it is followed.
func openTreeDir(p string) (*os.File, error) {
	fd, err := openat(unix.AT_FDCWD, p, dirFlags&^unix.O_NOFOLLOW)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// openDirAt opens the directory name in dir; a link is refused.
func openDirAt(dir *os.File, name string) (*os.File, error) {
	p := dir.Name() + "/" + name
	var fd int
	err := withFD(dir, func(dfd int) (err error) {
		fd, err = openat(dfd, name, dirFlags)
		return err
	})
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// openFileAt opens the regular file name in dir. With look, it is first
// examined without being opened, so that a device or a FIFO is not even
// opened; the walk, which knows the entry's type already, skips that.
func openFileAt(dir *os.File, name string, look bool) (*os.File, os.FileInfo, error) {
	p := dir.Name() + "/" + name
	var fd int
	err := withFD(dir, func(dfd int) error {
		if look {
			var st unix.Stat_t
			if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return err
			}
			if st.Mode&unix.S_IFMT != unix.S_IFREG {
				return notRegular(p, fileMode(uint32(st.Mode)))
			}
		}
		var err error
		fd, err = openat(dfd, name, fileFlags)
		if err == unix.ELOOP {
			return notRegular(p, os.ModeSymlink)
		}
		return err
	})
	if err != nil {
		return nil, nil, &os.PathError{Op: "openat", Path: p, Err: err}
	}
	f := os.NewFile(uintptr(fd), p)
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(p, fi.Mode())
	}
	return f, fi, nil
}

func fileMode(m uint32) os.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return os.ModeDir
	case unix.S_IFLNK:
		return os.ModeSymlink
	case unix.S_IFIFO:
		return os.ModeNamedPipe
	case unix.S_IFSOCK:
		return os.ModeSocket
	case unix.S_IFCHR, unix.S_IFBLK:
		return os.ModeDevice
	}
	return 0
}

// readlinkAt reads the link name in dir.
func readlinkAt(dir *os.File, name string) (string, error) {
	for n := 256; ; n *= 2 {
		buf := make([]byte, n)
		var m int
		err := withFD(dir, func(dfd int) (err error) {
			for {
				m, err = unix.Readlinkat(dfd, name, buf)
				if err != unix.EINTR {
					return err
				}
			}
		})
		if err != nil {
			return "", &os.PathError{Op: "readlinkat", Path: dir.Name() + "/" + name, Err: err}
		}
		if m < n {
			return string(buf[:m]), nil
		}
	}
}
