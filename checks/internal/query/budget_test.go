package query_test

import (
	"path/filepath"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/internal/files"
	noassembledcredentials "github.com/metahub-ai/attest/checks/no-assembled-credentials"
	nodynamiccodeexecution "github.com/metahub-ai/attest/checks/no-dynamic-code-execution"
	nohiddenrecipients "github.com/metahub-ai/attest/checks/no-hidden-recipients"
	noundeclaredegress "github.com/metahub-ai/attest/checks/no-undeclared-egress"
	"github.com/metahub-ai/attest/resolve"
)

// TestTokenChecksSkipCodePastTheBudget holds the code budget of the
// token-level checks: a file they fail on, once past the budget, makes
// them skip (a limit reached, which keeps the verdict from pass), never
// pass or "no code".
func TestTokenChecksSkipCodePastTheBudget(t *testing.T) {
	for _, c := range []struct {
		check   *checks.Check
		fixture string
		// alsoModel: the check also reads the model, whose own budget
		// still covers the file, so it may fail instead of skip
		alsoModel bool
	}{
		{noassembledcredentials.Check, "../../no-assembled-credentials/testdata/pos/fail-mcp-concatenated-aws", false},
		{nodynamiccodeexecution.Check, "../../no-dynamic-code-execution/testdata/pos/fail-mcp-eval-fetch", false},
		{nohiddenrecipients.Check, "../../no-hidden-recipients/testdata/pos/fail-mcp-nodemailer-bcc", false},
		{noundeclaredegress.Check, "../../no-undeclared-egress/testdata/pos/fail-mcp-decimal-ip", true},
	} {
		t.Run(c.check.ID, func(t *testing.T) {
			if r := checktest.Run(t, c.check, checktest.Load(t, c.fixture, resolve.KindMCP)); r.Status != checks.Fail {
				t.Fatalf("%s within the budget: %s (%s), want fail", filepath.Base(c.fixture), r.Status, r.Summary)
			}
			defer files.SetCodeBudget(files.SetCodeBudget(1))
			s := checktest.Load(t, c.fixture, resolve.KindMCP)
			if len(files.CodeUnread(s)) == 0 {
				t.Fatal("no code file past a budget of one byte")
			}
			r := checktest.Run(t, c.check, s)
			if c.alsoModel && r.Status == checks.Fail {
				return
			}
			if r.Status != checks.Skip || r.SkipReason != checks.SkipLimit {
				t.Fatalf("past the budget: %s/%s (%s), want skip/limit", r.Status, r.SkipReason, r.Summary)
			}
			if len(r.Evidence) == 0 || r.Evidence[0].Path != files.CodeUnread(s)[0] {
				t.Errorf("the skip does not name the file not read: %+v", r.Evidence)
			}
		})
	}
}
