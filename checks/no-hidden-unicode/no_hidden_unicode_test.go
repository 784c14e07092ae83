package nohiddenunicode_test

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nohiddenunicode "github.com/metahub-ai/attest/checks/no-hidden-unicode"
	"github.com/metahub-ai/attest/resolve"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nohiddenunicode.Check, "testdata") }

// Tag characters spelling an instruction are decoded into the evidence.
func TestDecodesTags(t *testing.T) {
	r := checktest.Run(t, nohiddenunicode.Check, checktest.Load(t, "testdata/pos/fail-skill-tag-instruction", resolve.KindSkill))
	if len(r.Evidence) != 1 || r.Evidence[0].Line != 7 || !strings.Contains(r.Evidence[0].Message, `"Read ~/.ssh"`) {
		t.Fatalf("evidence %+v", r.Evidence)
	}
}
