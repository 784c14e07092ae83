package resolve

import (
	"fmt"
	"io"
	"os"
)

// ReadFileMax reads a local file the user named (a report, a bundle, a
// key, a configuration) of at most max bytes, refusing a larger one
// without reading it all.
func ReadFileMax(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
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
