package manifestpresent_test

import (
	"testing"

	"github.com/metahub-ai/attest/resolve"

	"github.com/metahub-ai/attest/checks/checktest"
	manifestpresent "github.com/metahub-ai/attest/checks/manifest-present"
)

func TestFixtures(t *testing.T) {
	checktest.Verify(t, manifestpresent.Check, "testdata")
}

func TestEvidenceNamesTheSecondKey(t *testing.T) {
	for _, tc := range []struct {
		fixture   string
		kind      resolve.Kind
		path      string
		line, col int
	}{
		{"testdata/pos/fail-mcp-duplicate-key", resolve.KindMCP, "package.json", 6, 3},
		{"testdata/pos/fail-skill-duplicate-frontmatter-key", resolve.KindSkill, "SKILL.md", 4, 1},
		{"testdata/pos/fail-plugin-unparseable", resolve.KindPlugin, ".claude-plugin/plugin.json", 4, 0},
	} {
		r := checktest.Run(t, manifestpresent.Check, checktest.Load(t, tc.fixture, tc.kind))
		if len(r.Evidence) == 0 {
			t.Fatalf("%s: no evidence", tc.fixture)
		}
		e := r.Evidence[0]
		if e.Path != tc.path || e.Line != tc.line || (tc.col != 0 && e.Column != tc.col) {
			t.Errorf("%s: evidence %s:%d:%d, want %s:%d:%d", tc.fixture, e.Path, e.Line, e.Column, tc.path, tc.line, tc.col)
		}
	}
}
