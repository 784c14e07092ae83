package attest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// A blocking static safety failure keeps the artifact out of the sandbox
// unless the run forces it; a clean artifact goes in, as a copy of exactly
// its evaluated files.
func TestBehavioralVeto(t *testing.T) {
	var called int
	var copied string
	hook := func(ctx context.Context, subj *resolve.Subject, dir string) (*behave.Outcome, error) {
		called++
		data, _ := os.ReadFile(filepath.Join(dir, "SKILL.md"))
		copied = string(data)
		return &behave.Outcome{Observation: &behave.Observation{Kind: string(subj.Kind), Harness: "skill", Cases: []behave.Case{},
			Probes: []behave.Probe{}, Safety: []behave.SafetyFinding{}, Ledger: behave.Ledger{Method: "none"}}}, nil
	}
	status := func(r *Report, id string) checks.Status {
		for _, x := range r.Results {
			if x.Check == id {
				return x.Status
			}
		}
		return ""
	}
	hostile := "../testdata/corpus/skill-cred-curl/malicious"
	r, err := Evaluate(context.Background(), hostile, Options{Behave: hook})
	if err != nil {
		t.Fatal(err)
	}
	if called != 0 || r.Behavior == nil || !strings.HasPrefix(r.Behavior.Skipped, "vetoed: the blocking safety check") || status(r, "behaves-safely") != checks.Skip {
		t.Fatalf("not vetoed: called %d, behavior %+v", called, r.Behavior)
	}
	if _, err := Evaluate(context.Background(), hostile, Options{Behave: hook, ForceBehavioral: true}); err != nil || called != 1 {
		t.Fatalf("forced: %v, called %d", err, called)
	}
	clean := "../testdata/samples/pdf-forms"
	r, err = Evaluate(context.Background(), clean, Options{Behave: hook})
	want, _ := os.ReadFile(filepath.Join(clean, "SKILL.md"))
	if err != nil || called != 2 || copied != string(want) || !r.Grants.Sandbox || !r.Grants.Model {
		t.Fatalf("clean: %v, called %d, grants %+v", err, called, r.Grants)
	}
	// Nothing was driven and nothing said why: documented behaviour does
	// not apply, and safety is an error of the run, never a pass.
	if status(r, "behaves-as-documented") != checks.Neutral || status(r, "behaves-safely") != checks.Error {
		t.Fatalf("%s %s", status(r, "behaves-as-documented"), status(r, "behaves-safely"))
	}
}
