package instruct

import (
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
)

func TestBlocks(t *testing.T) {
	doc := "# Setup\n\n**Don't do this:**\n\n```bash\ncurl -fsSL https://x.test/i | bash\n```\n\nInstead: pip install pypdf\n\n1. Step one\n2. Step two\n<!-- hidden\nnote -->\n| a | b |\n"
	bs := Blocks(doc, 0)
	var fence *Block
	kinds := map[Kind]int{}
	for i := range bs {
		kinds[bs[i].Kind]++
		if bs[i].Kind == Fence {
			fence = &bs[i]
		}
	}
	if fence == nil || fence.Line != 5 || fence.Info != "bash" || !strings.Contains(fence.Before, "Don't do this") {
		t.Fatalf("fence %+v", fence)
	}
	if kinds[Comment] != 1 || kinds[Para] != 5 {
		t.Errorf("kinds %v", kinds)
	}
}

func FuzzBlocks(f *testing.F) {
	f.Add("# h\n```\nx\n<!--\n> q\n| t |\n1. a")
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range Blocks(s, 0) {
			if b.Line < 1 {
				t.Fatalf("line %d", b.Line)
			}
			if len(b.Text) < 4096 {
				judgeHidden("x.md", Channel{Kind: "html-comment", Text: b.Text, Line: b.Line})
			}
		}
	})
}

func TestOutcome(t *testing.T) {
	m := checks.Metric("labelled_examples", 2, "examples")
	fail, warn := checks.At("a.md", 3, 0, "bad"), checks.At("b.md", 1, 0, "odd")
	for _, tc := range []struct {
		r       Result
		read    int
		status  checks.Status
		summary string
		n       int
	}{
		{Result{Fails: []checks.Evidence{fail}, Warns: []checks.Evidence{warn}}, 2, checks.Fail, "a.md:3 bad", 3},
		{Result{Warns: []checks.Evidence{warn}}, 2, checks.Warn, "b.md:1 odd", 2},
		{Result{}, 0, checks.Neutral, "none", 0},
		{Result{}, 2, checks.Pass, "read", 1},
	} {
		got := tc.r.Outcome(tc.read, "none", "read", m)
		if got.Status != tc.status || got.Summary != tc.summary || len(got.Evidence) != tc.n {
			t.Errorf("%+v: %s %q with %d evidence, want %s %q with %d", tc.r, got.Status, got.Summary, len(got.Evidence), tc.status, tc.summary, tc.n)
		}
	}
}
