package noobfuscatedpayloads_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	noobfuscatedpayloads "github.com/metahub-ai/attest/checks/no-obfuscated-payloads"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, noobfuscatedpayloads.Check, "testdata") }
