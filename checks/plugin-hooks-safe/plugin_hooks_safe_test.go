package pluginhookssafe_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginhookssafe "github.com/metahub-ai/attest/checks/plugin-hooks-safe"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginhookssafe.Check, "testdata") }
