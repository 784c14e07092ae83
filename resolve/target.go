package resolve

import (
	"errors"
	"fmt"
	"github.com/metahub-ai/attest/checks/lex"
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

var remoteRe = lex.Lazy(`^([a-z][a-z0-9+.-]*://|git@|npm:|pypi:|registry:|gh:|github:)`)

// Parse parses a target string. Local directories are supported; remote
// forms are recognised so that they fail with a clear message instead of
// being mistaken for a relative path.
func Parse(s string) (Target, error) {
	if strings.TrimSpace(s) == "" {
		return Target{}, fmt.Errorf("empty target: give a directory, e.g. 'attest run .'")
	}
	if m := remoteRe.Re().FindString(s); m != "" && !strings.HasPrefix(s, "file://") {
		return Target{}, fmt.Errorf("target %q: %w: only local directories can be evaluated by this build; clone or unpack it and pass the directory", s, ErrUnsupportedTarget)
	}
	return Target{Raw: s, Type: "dir", Path: strings.TrimPrefix(s, "file://")}, nil
}
