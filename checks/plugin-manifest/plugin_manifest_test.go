package pluginmanifest_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginmanifest "github.com/metahub-ai/attest/checks/plugin-manifest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginmanifest.Check, "testdata") }
