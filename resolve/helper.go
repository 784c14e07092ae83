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

// EnvVerifyHelper names the attest-verify binary.
const EnvVerifyHelper = "ATTEST_VERIFY_HELPER"

// VerifyHelperName is the verifier's file name.
const VerifyHelperName = "attest-verify"

// ErrNoNetHelper is returned when the network helper is not installed.
var ErrNoNetHelper = errors.New("the attest-net helper was not found beside attest or on PATH; install it with 'go install github.com/metahub-ai/attest/cmd/attest-net@latest' (or build ./cmd/... together) or set " + EnvNetHelper)

// ErrNoVerifyHelper is returned when the verifier is not installed.
var ErrNoVerifyHelper = errors.New("the attest-verify verifier was not found beside attest or on PATH; install it with 'go install github.com/metahub-ai/attest/cmd/attest-verify@latest' (or build ./cmd/... together) or set " + EnvVerifyHelper)

// NetHelper finds attest-net, the binary that does everything that
// reaches the network (remote targets, advisory lookups) and the Sigstore
// signing, so that attest itself links no network stack: $ATTEST_NET_HELPER,
// then beside the running executable, then on PATH.
func NetHelper() (string, error) {
	return helper(EnvNetHelper, NetHelperName, ErrNoNetHelper)
}

// VerifyHelper finds attest-verify, the verifier 'attest verify' starts,
// the same way.
func VerifyHelper() (string, error) {
	return helper(EnvVerifyHelper, VerifyHelperName, ErrNoVerifyHelper)
}

func helper(env, name string, missing error) (string, error) {
	if p := os.Getenv(env); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", missing
}
