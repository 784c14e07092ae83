// Package nettest builds attest's companion binaries for tests, once per
// test binary, so that tests run the real binaries the CLI starts:
// attest-net and attest-verify.
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
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "github.com/metahub-ai/attest/cmd/attest-net", "github.com/metahub-ai/attest/cmd/attest-verify").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building attest-net and attest-verify: %v\n%s", err, out)
	}
	return dir, nil
})

func built(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := build()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// Binary returns the path of a freshly built attest-net; the build happens
// once per test binary (the files are left in the system's temporary
// directory for the process's other tests).
func Binary(tb testing.TB) string { return built(tb, "attest-net") }

// Verifier returns the path of a freshly built attest-verify, which finds
// attest-net beside itself.
func Verifier(tb testing.TB) string { return built(tb, "attest-verify") }
