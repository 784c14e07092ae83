package mcpsdkpinned

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }

func TestBounded(t *testing.T) {
	for spec, want := range map[string]bool{"1.2.3": true, "^1.2": true, "~1.2.0": true, ">=1 <2": true, "1.x": true, "": false, "*": false, "latest": false, ">=1.0.0": false, "^1 || >=3": false, "git+https://x": false} {
		if got := bounded(spec, false); got != want {
			t.Errorf("npm %q: %v", spec, got)
		}
	}
	for spec, want := range map[string]bool{"==1.9": true, "~=1.9": true, ">=1.9,<2": true, "": false, ">=1.9": false, ">1": false} {
		if got := bounded(spec, true); got != want {
			t.Errorf("python %q: %v", spec, got)
		}
	}
}
