package verify

// Forgeries by the key holder: a report altered and re-signed with the
// publisher's own key, so the signature holds and only the report's own
// consistency, and the artifact, can refuse it. Each test builds the real
// report first (attest.Evaluate on an artifact written here), forges it
// as a publisher could, recomputes the score so the forgery is
// self-consistent, and verifies it with the key and the artifact.

import (
	"context"
	"crypto"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/checktest"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
)

var forgedAt = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// writeTree writes files under a fresh directory named name.
func writeTree(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tokenSkill is a skill whose script holds a live-looking token, so
// no-hardcoded-secrets fails and blocks.
func tokenSkill(t *testing.T) string {
	return writeTree(t, "deploy-helper", map[string]string{
		"SKILL.md":          "---\nname: deploy-helper\ndescription: Publishes the documentation site to the staging host. Use when asked to deploy or publish the docs.\n---\n# Deploy\n\nRun `python scripts/deploy.py` from the repository root.\n",
		"scripts/deploy.py": "import os\n\nTOKEN = \"" + checktest.Placeholders()["@@GH_TOKEN@@"] + "\"\nprint(os.getcwd())\n",
	})
}

func evaluate(t *testing.T, dir string, opts attest.Options) *attest.Report {
	t.Helper()
	opts.Now = func() time.Time { return forgedAt }
	r, err := attest.Evaluate(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func resultOf(t *testing.T, rep *attest.Report, id string) *policy.Result {
	t.Helper()
	for i := range rep.Results {
		if rep.Results[i].Check == id {
			return &rep.Results[i]
		}
	}
	t.Fatalf("no result of %s", id)
	return nil
}

// relabelled serves the pinned catalog, with extra entries for check
// versions a forger made up.
type relabelled map[string]checks.Entry

func (c relabelled) Entry(id, version string) (checks.Entry, bool) {
	if e, ok := c[id+"@"+version]; ok {
		return e, true
	}
	p, err := suite.Pinned()
	if err != nil {
		return checks.Entry{}, false
	}
	return p.Entry(id, version)
}

// rescore makes the forged report's score what its results give, as a
// forger who knows the formula would.
func rescore(t *testing.T, rep *attest.Report, extra relabelled) {
	t.Helper()
	s, err := policy.Compute(rep.Results, extra, rep.Policy.MinScore)
	if err != nil {
		t.Fatal(err)
	}
	rep.Score = s
}

func signedReport(t *testing.T, rep *attest.Report, k crypto.Signer) []byte {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return signed(t, b, k)
}

// olderPinned is a pinned version of id other than version, with the same
// catalog fields, so the recomputed score holds.
func olderPinned(t *testing.T, id, version string) string {
	t.Helper()
	p, _ := suite.Pinned()
	cur, ok := p.Entry(id, version)
	if !ok {
		t.Fatalf("%s@%s is not pinned", id, version)
	}
	for _, e := range p.Entries() {
		if e.ID == id && e.Version != version && e.Axis == cur.Axis && e.Weight == cur.Weight && e.Blocking == cur.Blocking && e.Tier == cur.Tier {
			return e.Version
		}
	}
	t.Fatalf("%s has no other pinned version", id)
	return ""
}

// TestForgedVersionLabels: a failing check relabelled with an older
// pinned version (which this build does not re-run) or a version that
// never existed, the suite set to a release this verifier does not know,
// the status set to pass and the score recomputed. An unknown suite or
// check version fails, named.
func TestForgedVersionLabels(t *testing.T) {
	k, _ := keys.Generate(keys.Ed25519)
	dir := tokenSkill(t)
	real := evaluate(t, dir, attest.Options{})
	var failing []string
	for _, r := range real.Results {
		if r.Status == checks.Fail && r.Blocking {
			failing = append(failing, r.Check)
		}
	}
	if !slices.Contains(failing, "no-hardcoded-secrets") || real.Score.Verdict != policy.VerdictFail {
		t.Fatalf("the artifact should fail no-hardcoded-secrets: %v, verdict %s", failing, real.Score.Verdict)
	}
	pass := func(r *policy.Result) {
		r.Status, r.Summary, r.Detail, r.Remediation, r.Evidence, r.Score = checks.Pass, "no secret found", "", "", []checks.Evidence{}, nil
	}
	for _, c := range []struct {
		name, version string
		want          map[string]string // answer → a word its reason must carry
	}{
		{"an older pinned version", "", map[string]string{"suite": "9.9.9"}},
		{"a version never released", "1.0.7", map[string]string{"suite": "9.9.9", "score": "no-hardcoded-secrets@1.0.7"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep attest.Report
			b, _ := json.Marshal(real)
			json.Unmarshal(b, &rep)
			extra := relabelled{}
			for _, id := range failing {
				r := resultOf(t, &rep, id)
				pass(r)
				if c.version != "" {
					p, _ := suite.Pinned()
					e, _ := p.Entry(id, r.Version)
					e.Version = c.version
					extra[id+"@"+c.version] = e
					r.Version = c.version
				} else {
					r.Version = olderPinned(t, id, r.Version)
				}
			}
			rep.Suite.Version = "9.9.9"
			rescore(t, &rep, extra)
			if rep.Score.Verdict != policy.VerdictPass {
				t.Fatalf("the forgery should claim pass: %+v", rep.Score)
			}
			res := Verify(context.Background(), signedReport(t, &rep, k), Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: dir})
			a := answers(res)
			if !res.Failed || a["signature"].Status != OK {
				t.Fatalf("the forgery verifies: %+v", res.Answers)
			}
			for name, word := range c.want {
				if a[name].Status != Fail || !strings.Contains(a[name].Reason, word) {
					t.Errorf("%s: %s %q, want a failure naming %s", name, a[name].Status, a[name].Reason, word)
				}
			}
		})
	}
}

// behaved evaluates dir with a behavioral run that drove one case, kept
// its transcript's digest and a strace ledger, and saw nothing unsafe, so
// behaves-safely passes as it does after a real run.
func behaved(t *testing.T, dir string) *attest.Report {
	t.Helper()
	hook := func(_ context.Context, subj *resolve.Subject, _ string) (*behave.Outcome, error) {
		score, pass := 0.9, true
		return &behave.Outcome{
			Observation: &behave.Observation{Kind: string(subj.Kind), Harness: "skill", PassThreshold: 0.7,
				Cases: []behave.Case{{ID: "fill", Source: "synthesized", Prompt: "Fill in the form.",
					Runs: []behave.CaseRun{{Transcript: strings.Repeat("5e", 32), Turns: 4, Score: &score, Pass: &pass}}}},
				Probes: []behave.Probe{}, Safety: []behave.SafetyFinding{},
				Ledger: behave.Ledger{Method: "strace", Network: []behave.NetEvent{}, Files: []behave.FileEvent{}, Processes: []behave.ProcEvent{}}},
			Environment: &behave.Environment{Sandbox: &behave.SandboxRecord{Kind: "bwrap", Version: "0.11.0", Ledger: "strace", AllowHosts: []string{}}},
		}, nil
	}
	r := evaluate(t, dir, attest.Options{Behave: hook})
	if got := resultOf(t, r, "behaves-safely").Status; got != checks.Pass {
		t.Fatalf("behaves-safely %s after a clean behavioral run", got)
	}
	return r
}

// statementOf is a Statement v1 written by hand around predicate, so a
// key holder's repeated keys survive into the signed payload.
func statementOf(rep *attest.Report, predicate string) []byte {
	name, _ := json.Marshal(string(rep.Subject.Kind) + ":" + rep.Subject.Name)
	return []byte(`{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":` + string(name) + `,"digest":{"sha256":"` +
		rep.Subject.Digest.SHA256 + `"}}],"predicateType":"` + attest.PredicateType + `","predicate":` + predicate + `}`)
}

// TestForgedDuplicateKeys: the signed payload repeats a key, so Go's
// reader (the last pair wins) and a first-wins reader see different
// reports. Any repeated key, at any depth, fails.
func TestForgedDuplicateKeys(t *testing.T) {
	k, _ := keys.Generate(keys.Ed25519)
	dir := tokenSkill(t)
	real := evaluate(t, dir, attest.Options{})
	realJSON, _ := json.Marshal(real)
	var forged attest.Report
	json.Unmarshal(realJSON, &forged)
	for i := range forged.Results {
		if r := &forged.Results[i]; r.Status == checks.Fail {
			r.Status, r.Evidence, r.Summary = checks.Pass, []checks.Evidence{}, "no secret found"
		}
	}
	rescore(t, &forged, nil)
	fr, _ := json.Marshal(forged.Results)
	fs, _ := json.Marshal(forged.Score)
	body := string(realJSON[1 : len(realJSON)-1])
	pair := `"results":` + string(fr) + `,"score":` + string(fs)
	// The result of no-hardcoded-secrets, with its status given twice.
	secrets, _ := json.Marshal(resultOf(t, real, "no-hardcoded-secrets"))
	twice := strings.Replace(string(realJSON), string(secrets), `{"status":"pass",`+string(secrets[1:]), 1)
	ran := behaved(t, sample)
	ranJSON, _ := json.Marshal(ran)
	if !strings.Contains(string(ranJSON), `"method":"strace"`) {
		t.Fatal("the behavioral report has no ledger")
	}
	for _, c := range []struct{ name, payload, where string }{
		{"score and results, the forged pair first", string(statementOf(real, "{"+pair+","+body+"}")), "results"},
		{"score and results, the forged pair last", string(statementOf(real, "{"+body+","+pair+"}")), "results"},
		{"a status inside a result", string(statementOf(real, twice)), "status"},
		{"a key differing only in case", string(statementOf(real, `{"Score":`+string(fs)+","+body+"}")), "score"},
		{"the statement's subject name", strings.Replace(string(statementOf(real, string(realJSON))), `"name":`, `"name":"skill:pdf-forms","name":`, 1), "name"},
		// The schema leaves the behavioral block's objects open, so only
		// the keys tell: Go reads the last "Method", a case-sensitive
		// reader the first "method".
		{"a ledger's method, twice but for case", string(statementOf(ran, strings.Replace(string(ranJSON), `"method":"strace"`, `"method":"strace","Method":"none"`, 1))), "Method"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !json.Valid([]byte(c.payload)) {
				t.Fatal("the forged payload is not JSON")
			}
			b, err := sign.BundlePayload(context.Background(), []byte(c.payload), k)
			if err != nil {
				t.Fatal(err)
			}
			artifact := dir
			if strings.Contains(c.name, "ledger") {
				artifact = sample
			}
			res := Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: artifact})
			a := answers(res)
			if !res.Failed {
				t.Fatalf("the forgery verifies: %+v", res.Answers)
			}
			if a["statement"].Status != Fail || !strings.Contains(a["statement"].Reason, `"`+c.where+`"`) || !strings.Contains(a["statement"].Reason, "twice") {
				t.Errorf("statement %s %q, want a failure naming the repeated key %q", a["statement"].Status, a["statement"].Reason, c.where)
			}
		})
	}
}

// copyTree copies a directory under a fresh one named name.
func copyTree(t *testing.T, src, name string) string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[rel] = string(b)
		return err
	})
	return writeTree(t, name, files)
}

// TestForgedSubjectName: the same tree, signed under another artifact's
// name. The name the artifact declares is compared with the signed one;
// the directory the verifier keeps it in does not matter.
func TestForgedSubjectName(t *testing.T) {
	k, _ := keys.Generate(keys.Ed25519)
	real := evaluate(t, sample, attest.Options{})
	if real.Subject.Name != "pdf-forms" {
		t.Fatalf("the sample is named %q", real.Subject.Name)
	}
	// Kept under another directory name, the honest report verifies.
	elsewhere := copyTree(t, sample, "downloaded-1.2.0")
	res := Verify(context.Background(), signedReport(t, real, k), Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: elsewhere})
	if a := answers(res); res.Failed || a["subject name"].Status != OK {
		t.Fatalf("the honest report: %+v", res.Answers)
	}
	forged := *real
	forged.Subject.Name = "docx-tools"
	res = Verify(context.Background(), signedReport(t, &forged, k), Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: elsewhere})
	a := answers(res)
	if !res.Failed || a["signature"].Status != OK || a["statement"].Status != OK {
		t.Fatalf("the forgery verifies: %+v", res.Answers)
	}
	if a["subject name"].Status != Fail || !strings.Contains(a["subject name"].Reason, `"pdf-forms"`) || !strings.Contains(a["subject name"].Reason, `"docx-tools"`) {
		t.Errorf("subject name: %+v", a["subject name"])
	}
	// A tree that declares no name is named after its directory, which
	// the tree does not record: said, not checked.
	bare := writeTree(t, "weather", map[string]string{
		"agents/forecast.md": "---\ndescription: Answers questions about tomorrow's weather from the public forecast.\n---\nAnswer with the forecast for the city the user names.\n",
	})
	honest := evaluate(t, bare, attest.Options{})
	if honest.Subject.DeclaredName != "" || honest.Subject.Name != "weather" {
		t.Fatalf("the bare tree: kind %s, name %q declared %q", honest.Subject.Kind, honest.Subject.Name, honest.Subject.DeclaredName)
	}
	res = Verify(context.Background(), signedReport(t, honest, k), Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: bare})
	if a := answers(res); a["subject name"].Status != Warn || !strings.Contains(a["subject name"].Reason, "declares no name") {
		t.Errorf("undeclared name: %+v", a["subject name"])
	}
}
