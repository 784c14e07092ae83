package skilltokenfootprint

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, Check, "testdata") }
