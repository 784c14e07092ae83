// Package nettest builds the attest-net companion for tests, once per
// test binary, so that tests run the real binary the CLI starts.
package nettest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var build = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "attest-net-test")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "attest-net")
	if out, err := exec.Command("go", "build", "-o", p, "github.com/metahub-ai/attest/cmd/attest-net").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building attest-net: %v\n%s", err, out)
	}
	return p, nil
})

// Binary returns the path of a freshly built attest-net; the build happens
// once per test binary (the file is left in the system's temporary
// directory for the process's other tests).
func Binary(tb testing.TB) string {
	tb.Helper()
	p, err := build()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
