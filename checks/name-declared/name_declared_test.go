package namedeclared_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	namedeclared "github.com/metahub-ai/attest/checks/name-declared"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, namedeclared.Check, "testdata") }
