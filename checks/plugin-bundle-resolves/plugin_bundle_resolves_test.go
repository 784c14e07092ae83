package pluginbundleresolves_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginbundleresolves "github.com/metahub-ai/attest/checks/plugin-bundle-resolves"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginbundleresolves.Check, "testdata") }

func TestClean(t *testing.T) {
	for in, want := range map[string]bool{
		"./commands": true, "${CLAUDE_PLUGIN_ROOT}/x.sh": true, "a/../b": true,
		"../x": false, "/etc/passwd": false, "~/.ssh": false, "a/../../b": false, "$HOME/x": false,
	} {
		if _, ok := pluginbundleresolves.Clean(in); ok != want {
			t.Errorf("Clean(%q) inside = %v, want %v", in, ok, want)
		}
	}
}
