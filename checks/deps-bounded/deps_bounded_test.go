package depsbounded

import (
	"testing"

	"deps.dev/util/semver"

	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }

func TestOpen(t *testing.T) {
	for spec, want := range map[string]bool{"": true, "*": true, "latest": true, ">=1.0.0": true, "^1 || >=3": true, "^1.2": false, "~1.2.0": false, "1.2.3": false, ">=1 <2": false, "1.x": false,
		// dist-tags move with every publish; a semver library reads the rest
		"beta": true, "canary": true, "rc": true, "1.2.3 - 2.0.0": false, ">=1 <2 || >=3": true, "^0.0.1": false, "<2": false, "> 1": true} {
		if got := open(spec, semver.NPM); got != want {
			t.Errorf("npm %q: %v", spec, got)
		}
	}
	for spec, want := range map[string]bool{"": true, ">=1.9": true, ">1": true, "==1.9": false, "~=1.9": false, ">=1.9,<2": false} {
		if got := open(spec, semver.PyPI); got != want {
			t.Errorf("python %q: %v", spec, got)
		}
	}
	for spec, want := range map[string]bool{"1.2": false, "^0.4": false, "=1.0.3": false, ">=1": true, "*": true, ">=1, <2": false} {
		if got := open(spec, semver.Cargo); got != want {
			t.Errorf("cargo %q: %v", spec, got)
		}
	}
}

func TestInside(t *testing.T) {
	for p, want := range map[string]bool{"./vendor/x": true, "vendor": true, "../x": false, "/abs": false, "~/x": false, "a/../../b": false, "": false} {
		if inside(p) != want {
			t.Errorf("%q: %v", p, !want)
		}
	}
}
