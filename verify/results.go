package verify

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
)

// catalogs are what the results answer reads besides the report: the
// pinned entry of every check version shipped, and the checks this build
// runs.
type catalogs struct {
	pinned func(id, version string) (checks.Entry, bool)
	live   func(id string) (*checks.Check, bool)
}

func defaultCatalogs() (catalogs, error) {
	p, err := suite.Pinned()
	if err != nil {
		return catalogs{}, err
	}
	cat, err := suite.Default()
	if err != nil {
		return catalogs{}, err
	}
	return catalogs{pinned: p.Entry, live: cat.Lookup}, nil
}

// checkResults answers whether the results hold. With the artifact (again
// is its re-run), every deterministic result is compared with the same
// check version re-run under the same analysis model: a key holder who
// flips a status and the score with it is caught here. A result no one
// can re-run (a behavioral or network check) must carry the evidence its
// tier requires, or it is unconfirmed, which fails: attest never writes
// such a result. Deterministic results this build cannot re-run (no
// artifact, another version, another model) leave the answer a warning.
func checkResults(r *Result, rep, again *attest.Report, cs catalogs) {
	now := map[string]policy.Result{}
	if again != nil {
		for _, res := range again.Results {
			now[res.Check] = res
		}
	}
	var differ, unconfirmed, notRerun, other []string
	rerun := 0
	for _, res := range rep.Results {
		if res.Tier != checks.Deterministic {
			if why := missingEvidence(rep, res, cs); why != "" {
				unconfirmed = append(unconfirmed, res.Check+" "+why)
				r.unconfirmed = append(r.unconfirmed, res.Check)
			} else {
				other = append(other, res.Check+" ("+string(res.Tier)+")")
			}
			continue
		}
		if again == nil {
			r.notRerun = append(r.notRerun, res.Check)
			continue
		}
		n, ok := now[res.Check]
		if why := notComparable(res, n, ok, cs); why != "" {
			notRerun = append(notRerun, res.Check+"@"+res.Version+" ("+why+")")
			r.notRerun = append(r.notRerun, res.Check)
			continue
		}
		if n.Status != res.Status {
			differ = append(differ, fmt.Sprintf("%s: signed %s, re-run %s", res.Check, res.Status, n.Status))
			continue
		}
		rerun++
	}
	var bad, notes []string
	if len(differ) > 0 {
		bad = append(bad, "re-run on the artifact, "+strings.Join(differ, "; "))
	}
	if len(unconfirmed) > 0 {
		bad = append(bad, "unconfirmed, so refused: "+strings.Join(unconfirmed, "; "))
	}
	switch {
	case again == nil:
		notes = append(notes, fmt.Sprintf("%d deterministic results not re-run: give the artifact (--artifact)", len(r.notRerun)))
	case len(notRerun) > 0:
		notes = append(notes, fmt.Sprintf("%d deterministic results re-run and matched; not re-run: %s", rerun, strings.Join(notRerun, ", ")))
	default:
		notes = append(notes, fmt.Sprintf("all %d deterministic results re-run and matched", rerun))
	}
	if len(other) > 0 {
		notes = append(notes, "not re-run, with the evidence their tier requires or nothing judged: "+strings.Join(other, ", "))
	}
	switch {
	case len(bad) > 0:
		r.add("results", Fail, "%s", strings.Join(bad, "; "))
	case again == nil || len(notRerun) > 0:
		r.add("results", Warn, "%s", strings.Join(notes, "; "))
	default:
		r.add("results", OK, "%s", strings.Join(notes, "; "))
	}
}

// notComparable says why a deterministic result cannot be compared with
// its re-run: this build runs another version of the check, or the same
// version under another analysis model than the one it was pinned with
// (a model differing under one version is a build out of step with its
// pinned catalog; comparing would blame the artifact for the build).
func notComparable(res, n policy.Result, ran bool, cs catalogs) string {
	c, known := cs.live(res.Check)
	switch {
	case !known:
		return "this build has no such check"
	case !ran || n.Version != res.Version:
		return "this build runs " + c.Version + releasedIn(res.Check, res.Version)
	}
	p, ok := cs.pinned(res.Check, res.Version)
	if live := c.Entry(); ok && p.Uses != live.Uses {
		return fmt.Sprintf("pinned with analysis model %s; this build's is %s", orNone(p.Uses), orNone(live.Uses))
	}
	return ""
}

// releasedIn names the suite releases that shipped a check version.
func releasedIn(id, version string) string {
	rs, err := suite.Releases()
	if err != nil {
		return ""
	}
	var in []string
	for _, r := range rs {
		if slices.Contains(r.Checks, id+"@"+version) {
			in = append(in, r.ID+"@"+r.Version)
		}
	}
	if len(in) == 0 {
		return ""
	}
	return "; " + version + " shipped in " + strings.Join(in, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// missingEvidence says what a result of a check no one can re-run lacks
// of the evidence its tier requires; empty when it carries it or claims
// no judgement. A behavioral result (pass, warn or fail) rests on the
// report's behavioral run: its transcripts' digests and its ledger. A
// network check's pass rests on its lookups: the requests it recorded,
// each with the digest of its response.
func missingEvidence(rep *attest.Report, res policy.Result, cs catalogs) string {
	judged := res.Status == checks.Pass || res.Status == checks.Warn || res.Status == checks.Fail
	if !judged {
		return ""
	}
	c, ok := cs.live(res.Check)
	if !ok {
		return fmt.Sprintf("is %s, and this build does not know what evidence %s results need", res.Status, res.Tier)
	}
	for _, n := range c.Needs {
		if !rep.Grants.Has(n) {
			return fmt.Sprintf("is %s, but the report's grants give no %s, without which it never runs", res.Status, n)
		}
	}
	switch {
	case slices.Contains(c.Needs, checks.Sandbox) || slices.Contains(c.Needs, checks.Model):
		return behavioralEvidence(rep, res)
	case slices.Contains(c.Needs, checks.Net) && res.Status == checks.Pass:
		for _, e := range res.Evidence {
			if e.Type == checks.EvidenceURL && e.URL != "" && isDigest(e.SHA256) {
				return ""
			}
		}
		return "passes with no recorded request (a URL and the sha256 of its response)"
	}
	return ""
}

func behavioralEvidence(rep *attest.Report, res policy.Result) string {
	b := rep.Behavior
	switch {
	case b == nil:
		return fmt.Sprintf("is %s with no behavioral run in the report (no transcript, no ledger)", res.Status)
	case b.Skipped != "":
		return fmt.Sprintf("is %s, but the report says the behavioral run did not take place (%s)", res.Status, b.Skipped)
	case b.Ledger.Method == "":
		return fmt.Sprintf("is %s, but the behavioral run records no ledger", res.Status)
	}
	seen := map[string]bool{}
	for _, c := range b.Cases {
		for _, run := range c.Runs {
			seen[run.Transcript] = true
		}
	}
	for _, p := range b.Probes {
		seen[p.Transcript] = true
	}
	for _, h := range b.Hooks {
		seen[h.Transcript] = true
	}
	delete(seen, "")
	for d := range seen {
		if !isDigest(d) {
			return fmt.Sprintf("is %s, but the behavioral run names a transcript by %q, not a sha256", res.Status, d)
		}
	}
	if len(seen) == 0 {
		return fmt.Sprintf("is %s, but the behavioral run keeps no transcript", res.Status)
	}
	for _, e := range res.Evidence {
		if e.Type == checks.EvidenceTranscript && e.SHA256 != "" && !seen[e.SHA256] {
			return fmt.Sprintf("is %s on transcript %s, which the behavioral run does not hold", res.Status, e.SHA256)
		}
	}
	return ""
}

func isDigest(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32 && strings.ToLower(s) == s
}
