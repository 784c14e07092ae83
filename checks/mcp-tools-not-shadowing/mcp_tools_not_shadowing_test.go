package mcptoolsnotshadowing

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }

func TestCollides(t *testing.T) {
	for name, want := range map[string]string{
		"bash": "Bash", "web_fetch": "WebFetch", "webFetch": "WebFetch", "todo-write": "TodoWrite", "Wirte": "Write",
		"read_file": "", "search": "", "fetch": "", "head": "", "tasks": "",
	} {
		got, ok := collides(name)
		if ok != (want != "") || ok && got != want {
			t.Errorf("collides(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
