package nodestruction_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nodestruction "github.com/metahub-ai/attest/checks/no-destruction"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nodestruction.Check, "testdata") }
