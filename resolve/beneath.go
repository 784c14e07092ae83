package resolve

import (
	"fmt"
	"os"
	"strings"
)

// openBeneath opens the regular file at the slash path rel under dir,
// following no link on the way.
func openBeneath(dir *os.File, rel string) (*os.File, error) {
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil, fmt.Errorf("%q is not a path inside %s", rel, dir.Name())
		}
	}
	cur := dir
	defer func() {
		if cur != dir {
			cur.Close()
		}
	}()
	for _, name := range parts[:len(parts)-1] {
		next, err := openDirAt(cur, name)
		if err != nil {
			return nil, err
		}
		if cur != dir {
			cur.Close()
		}
		cur = next
	}
	f, _, err := openFileAt(cur, parts[len(parts)-1], true)
	return f, err
}

// ReadBeneath reads the file at the slash path rel inside the directory
// dir (at most max bytes), following no link inside dir and refusing
// anything but a regular file without blocking on it: a file of an
// artifact read outside the inventory, such as its MCP lock file.
func ReadBeneath(dir, rel string, max int64) ([]byte, error) {
	d, err := openTreeDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := openBeneath(d, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readMax(f, rel, max)
}
