package resolve

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnsupportedTarget is returned for a target form this build cannot fetch.
var ErrUnsupportedTarget = errors.New("unsupported target")

// Target is a parsed target string. Parse does no I/O.
type Target struct {
	Raw  string
	Type string // "dir"
	Path string
}

// looksRemote reports whether s starts like a remote target:
// ^([a-z][a-z0-9+.-]*://|git@|npm:|pypi:|registry:|gh:|github:).
func looksRemote(s string) bool {
	for _, p := range []string{"git@", "npm:", "pypi:", "registry:", "gh:", "github:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || scheme[0] < 'a' || scheme[0] > 'z' {
		return false
	}
	for i := 1; i < len(scheme); i++ {
		c := scheme[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// Parse parses a target string. Local directories are supported; remote
// forms are recognised so that they fail with a clear message instead of
// being mistaken for a relative path.
func Parse(s string) (Target, error) {
	if strings.TrimSpace(s) == "" {
		return Target{}, fmt.Errorf("empty target: give a directory, e.g. 'attest run .'")
	}
	if looksRemote(s) && !strings.HasPrefix(s, "file://") {
		return Target{}, fmt.Errorf("target %q: %w: only local directories can be evaluated by this build; clone or unpack it and pass the directory", s, ErrUnsupportedTarget)
	}
	return Target{Raw: s, Type: "dir", Path: strings.TrimPrefix(s, "file://")}, nil
}
