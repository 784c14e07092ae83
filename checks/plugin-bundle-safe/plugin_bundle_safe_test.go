package pluginbundlesafe_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginbundlesafe "github.com/metahub-ai/attest/checks/plugin-bundle-safe"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginbundlesafe.Check, "testdata") }
