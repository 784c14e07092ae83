package pluginbundledeclared_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginbundledeclared "github.com/metahub-ai/attest/checks/plugin-bundle-declared"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginbundledeclared.Check, "testdata") }
