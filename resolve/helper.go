package resolve

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// EnvNetHelper names the attest-net helper binary.
const EnvNetHelper = "ATTEST_NET_HELPER"

// NetHelperName is the helper's file name.
const NetHelperName = "attest-net"

// ErrNoNetHelper is returned when the network helper is not installed.
var ErrNoNetHelper = errors.New("the attest-net helper was not found beside attest or on PATH; install it with 'go install github.com/metahub-ai/attest/cmd/attest-net@latest' (or build ./cmd/... together) or set " + EnvNetHelper)

// NetHelper finds attest-net, the binary that does everything that
// reaches the network (remote targets, advisory lookups), so that attest
// itself links no network stack: $ATTEST_NET_HELPER, then beside the
// running executable, then on PATH.
func NetHelper() (string, error) {
	if p := os.Getenv(EnvNetHelper); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), NetHelperName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(NetHelperName); err == nil {
		return p, nil
	}
	return "", ErrNoNetHelper
}
