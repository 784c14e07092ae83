package nodynamiccodeexecution_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nodynamiccodeexecution "github.com/metahub-ai/attest/checks/no-dynamic-code-execution"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nodynamiccodeexecution.Check, "testdata") }
