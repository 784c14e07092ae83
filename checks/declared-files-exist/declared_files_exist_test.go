package declaredfilesexist_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	declaredfilesexist "github.com/metahub-ai/attest/checks/declared-files-exist"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, declaredfilesexist.Check, "testdata") }

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, path string
		want       bool
	}{{"lib/**/*.js", "lib/a/b/c.js", true}, {"lib/**/*.js", "lib/c.js", true}, {"*.md", "README.md", true}, {"*.md", "docs/a.md", false}, {"dist", "dist/index.js", true}} {
		re, err := declaredfilesexist.Glob(tc.glob)
		if err != nil || re.MatchString(tc.path) != tc.want {
			t.Errorf("Glob(%q) on %q = %v, want %v (%v)", tc.glob, tc.path, !tc.want, tc.want, err)
		}
	}
}
