package versionformat_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	versionformat "github.com/metahub-ai/attest/checks/version-format"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, versionformat.Check, "testdata") }

func TestFormats(t *testing.T) {
	for v, want := range map[string]bool{"1.2.3": true, "v1.2.3": true, "1.2": false, "01.2.3": false, "1.2.3-alpha.1+b": true} {
		if versionformat.IsSemver(v) != want {
			t.Errorf("IsSemver(%q) != %v", v, want)
		}
	}
	for v, want := range map[string]bool{"1.0": true, "1!2.0.post1": true, "2.0rc1": true, "1.0.dev4": true, "latest": false, "1.0-beta_final!": false} {
		if versionformat.IsPEP440(v) != want {
			t.Errorf("IsPEP440(%q) != %v", v, want)
		}
	}
}
