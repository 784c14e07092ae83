package attest

import (
	"errors"
	"testing"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/policy"
)

func diffReport(digest string, surface *Surface, results ...policy.Result) *Report {
	r := &Report{Subject: Subject{Kind: "mcp", Name: "weather"}, Results: results, Surface: surface}
	r.Subject.Digest.SHA256 = digest
	return r
}

func TestCompareSurfaceAndStatuses(t *testing.T) {
	tool := func(desc string) *Surface {
		return &Surface{Origin: "declared", Tools: []SurfaceItem{{Name: "forecast", DescriptionSHA256: desc}}}
	}
	res := func(check string, st checks.Status) policy.Result {
		return policy.Result{Check: check, Version: "1.0.0", Status: st}
	}

	d, err := Compare(diffReport("a", tool("1"), res("c1", checks.Pass), res("c2", checks.Fail), res("c3", checks.Pass)),
		diffReport("a", tool("1"), res("c1", checks.Warn), res("c2", checks.Pass), res("c4", checks.Pass)))
	if err != nil {
		t.Fatal(err)
	}
	if !d.SameSubject || len(d.Regressions) != 1 || d.Regressions[0].Check != "c1" || len(d.Improvements) != 1 ||
		len(d.Added) != 1 || d.Added[0] != "c4@1.0.0" || len(d.Removed) != 1 || d.Removed[0] != "c3@1.0.0" || !d.Fails {
		t.Errorf("%+v", d)
	}

	d, _ = Compare(diffReport("a", tool("1")), diffReport("b", tool("2")))
	if len(d.Surface) != 1 || !d.Surface[0].Review || !d.Fails || d.Headline() != "surface changes need review" {
		t.Errorf("a changed description: %+v", d)
	}
	observed := tool("1")
	observed.Origin = "observed"
	d, _ = Compare(diffReport("a", tool("1")), diffReport("a", observed))
	if d.SurfaceNote == "" || d.Fails {
		t.Errorf("declared against observed: %+v", d)
	}
	if _, err := Compare(diffReport("a", nil), &Report{Subject: Subject{Kind: "skill", Name: "weather"}}); !errors.Is(err, ErrNotSameArtifact) {
		t.Errorf("different kinds: %v", err)
	}
}
