package nodownloadandrun_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nodownloadandrun "github.com/metahub-ai/attest/checks/no-download-and-run"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nodownloadandrun.Check, "testdata") }
