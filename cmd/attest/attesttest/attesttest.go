// Package attesttest builds the attest binary for tests, once per test
// binary, so that tests run the real command: the CLI end to end, the
// log server as a process, and the agent attest runs inside a sandbox.
package attesttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var build = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "attest-bin-test")
	if err != nil {
		return "", err
	}
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "github.com/metahub-ai/attest/cmd/attest").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building attest: %v\n%s", err, out)
	}
	return filepath.Join(dir, "attest"), nil
})

// Binary returns the path of a freshly built attest; the build happens
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
