package pluginhooksnotprivileged_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	pluginhooksnotprivileged "github.com/metahub-ai/attest/checks/plugin-hooks-not-privileged"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, pluginhooksnotprivileged.Check, "testdata") }
