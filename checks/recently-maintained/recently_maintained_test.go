package recentlymaintained

import (
	"context"
	"testing"
	"time"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/resolve"
)

func TestDaysSinceCommit(t *testing.T) {
	s := checktest.Load(t, "../skill-body/testdata/neg/skill-long-body", resolve.KindSkill)
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r, err := Check.Run(context.Background(), &checks.Input{Subject: s, StartedAt: start})
	if err != nil || r.Status != checks.Neutral {
		t.Fatalf("a directory target: %v %+v", err, r)
	}
	s.Source.Type = "git"
	s.CommitTime = start.Add(-40*24*time.Hour - time.Hour)
	r, err = Check.Run(context.Background(), &checks.Input{Subject: s, StartedAt: start})
	if err != nil || r.Status != checks.Pass || len(r.Evidence) != 1 || *r.Evidence[0].Value != 40 || r.Evidence[0].Name != "days_since_last_commit" {
		t.Fatalf("a git target: %v %+v", err, r)
	}
	// Without the clock grant the runner skips it.
	cat, _ := checks.NewCatalog("t", "0", []*checks.Check{Check})
	out := checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: checks.Grants{Net: false, Clock: false}})
	if out[0].Result.Status != checks.Skip {
		t.Fatalf("no clock: %+v", out[0].Result)
	}
}
