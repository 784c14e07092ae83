package testspresent

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{"tests/x.py": true, "src/__tests__/a.ts": true, "a.test.ts": true, "b.spec.js": true, "test_x.py": true,
		"x_test.py": true, "pkg/x_test.go": true, "evals/evals.json": true, "evals/README.md": false, "test_data.json": false,
		"latest.md": false, "contest.py": false, "src/testing.go": false} {
		if IsTest(p) != want {
			t.Errorf("%s: %v", p, !want)
		}
	}
}
