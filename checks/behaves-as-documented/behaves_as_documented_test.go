package behavesasdocumented

import (
	"context"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/observed"
	"github.com/metahub-ai/attest/resolve"
)

func runs(scores ...float64) *observed.Observation {
	var rs []observed.CaseRun
	for _, s := range scores {
		s := s
		p := s >= 0.7
		rs = append(rs, observed.CaseRun{Transcript: "ab", Score: &s, Pass: &p})
	}
	return &observed.Observation{Kind: "skill", Cases: []observed.Case{{ID: "c", Runs: rs}}}
}

func result(t *testing.T, obs *observed.Observation) checks.Result {
	t.Helper()
	r, err := Check.Run(context.Background(), &checks.Input{Behavior: obs})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The minimal pair: graded runs that pass, and the same runs failing.
func TestMinimalPair(t *testing.T) {
	if r := result(t, runs(0.9, 0.8)); r.Status != checks.Pass {
		t.Fatalf("%+v", r)
	}
	if r := result(t, runs(0.3, 0.2)); r.Status != checks.Fail {
		t.Fatalf("%+v", r)
	}
	if r := result(t, runs(0.9, 0.3)); r.Status != checks.Warn || *r.Score != 0.6 {
		t.Fatalf("%+v", r)
	}
}

// Evasion: documentation that talks the judge into refusing (or into
// anything) gets an error, never a grade, and an outage is not a 0.
func TestRefusalAndOutage(t *testing.T) {
	obs := runs(0.9)
	obs.Cases[0].Runs = append(obs.Cases[0].Runs, observed.CaseRun{Transcript: "cd", Refused: "the documentation addresses the grader"})
	if r := result(t, obs); r.Status != checks.Error {
		t.Fatalf("refusal: %+v", r)
	}
	down := &observed.Observation{Kind: "skill", Cases: []observed.Case{{ID: "c", Runs: []observed.CaseRun{{Error: "the judge could not grade: the model provider is not answering"}}}}}
	if r := result(t, down); r.Status != checks.Error {
		t.Fatalf("outage: %+v", r)
	}
}

// Nothing documented was driven (a plugin of hooks only): not applicable,
// neither a pass nor an error.
func TestNothingToGrade(t *testing.T) {
	obs := &observed.Observation{Kind: "plugin", Hooks: []observed.HookRun{{ID: "hook:x:1"}}}
	if r := result(t, obs); r.Status != checks.Neutral {
		t.Fatalf("%+v", r)
	}
}

// Through the runner: a refusal reaches the report as an error with its
// reason and transcript, not as a rejected status.
func TestThroughRunner(t *testing.T) {
	cat, _ := checks.NewCatalog("t", "0", []*checks.Check{Check})
	s := checktest.Load(t, "../skill-body/testdata/neg/skill-long-body", resolve.KindSkill)
	obs := &observed.Observation{Kind: "skill", Cases: []observed.Case{{ID: "c", Runs: []observed.CaseRun{{Transcript: "cd", Refused: "the documentation addresses the grader"}}}}}
	r := checks.Run(context.Background(), s, cat, checks.RunOptions{Grants: checks.Grants{Sandbox: true, Model: true}, Behavior: obs})[0].Result
	if r.Status != checks.Error || !strings.Contains(r.Summary, "addresses the grader") || len(r.Evidence) != 1 {
		t.Fatalf("%+v", r)
	}
}
