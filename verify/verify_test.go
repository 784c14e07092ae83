package verify

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

	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	sgverify "github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/policy"
)

const sample = "../testdata/samples/pdf-forms"

func readReport(t *testing.T) []byte {
	b, err := os.ReadFile("../testdata/report/skill-pass.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func answers(r *Result) map[string]Answer {
	m := map[string]Answer{}
	for _, a := range r.Answers {
		m[a.Name] = a
	}
	return m
}

func signed(t *testing.T, report []byte, k crypto.Signer) []byte {
	t.Helper()
	b, err := sign.Bundle(context.Background(), report, k)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sigstoreVerify checks a bundle with sigstore-go, trusting only key.
func sigstoreVerify(b *bundle.Bundle, key crypto.PublicKey, id string) error {
	v, err := signature.LoadDefaultVerifier(key)
	if err != nil {
		return err
	}
	tm := root.NewTrustedPublicKeyMaterialFromMapping(map[string]*root.ExpiringKey{id: root.NewExpiringKey(v, time.Time{}, time.Time{})})
	ver, err := sgverify.NewVerifier(tm, sgverify.WithNoObserverTimestamps())
	if err != nil {
		return err
	}
	_, err = ver.Verify(b, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithKey()))
	return err
}

func TestVerifySignedReport(t *testing.T) {
	for _, alg := range []string{keys.Ed25519, keys.ECDSAP256} {
		k, _ := keys.Generate(alg)
		b := signed(t, readReport(t), k)
		r := Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: sample})
		a := answers(r)
		if r.Failed {
			t.Fatalf("%s: %+v", alg, r.Answers)
		}
		for _, name := range []string{"signature", "statement", "schema", "suite", "score", "subject digest", "results"} {
			if a[name].Status != OK {
				t.Errorf("%s: %s is %s: %s", alg, name, a[name].Status, a[name].Reason)
			}
		}
		// Without a key the signature fails, and is a warning only when
		// the caller chose to ignore the signer.
		if a := answers(Verify(context.Background(), b, Options{})); a["signature"].Status != Fail {
			t.Errorf("%s: no key: %+v", alg, a["signature"])
		}
		if a := answers(Verify(context.Background(), b, Options{InsecureIgnoreSigner: true})); a["signature"].Status != Warn {
			t.Errorf("%s: no key, insecure: %+v", alg, a["signature"])
		}
		if r := Verify(context.Background(), b, Options{RequireSignature: true}); !r.Failed || answers(r)["signature"].Status != Fail {
			t.Errorf("%s: required signature without a key passed", alg)
		}
		other, _ := keys.Generate(alg)
		if a := answers(Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{other.Public()}})); a["signature"].Status != Fail || !strings.Contains(a["signature"].Reason, "not by a trusted key") {
			t.Errorf("%s: wrong key: %+v", alg, a["signature"])
		}
	}
}

// TestTamperMatrix alters one signed field at a time, re-signs with the
// same key (the key holder lies), and checks that the answer naming that
// field fails.
func TestTamperMatrix(t *testing.T) {
	k, _ := keys.Generate(keys.Ed25519)
	// result(id, field, v) alters the result of check id.
	result := func(id, field string, v any) func(map[string]any) {
		return func(m map[string]any) {
			for _, r := range m["results"].([]any) {
				if r := r.(map[string]any); r["check"] == id {
					r[field] = v
					return
				}
			}
			t.Fatalf("no result of %s", id)
		}
	}
	set := func(path string, v any) func(map[string]any) {
		return func(m map[string]any) {
			parts := strings.Split(path, ".")
			cur := any(m)
			for _, p := range parts[:len(parts)-1] {
				switch c := cur.(type) {
				case map[string]any:
					cur = c[p]
				case []any:
					var i int
					json.Unmarshal([]byte(p), &i)
					cur = c[i]
				}
			}
			cur.(map[string]any)[parts[len(parts)-1]] = v
		}
	}
	for _, c := range []struct {
		name, answer string
		alter        func(map[string]any)
	}{
		{"result weight", "score", result("no-hardcoded-secrets", "weight", 9)},
		{"result blocking", "score", result("skill-body", "blocking", true)},
		{"result axis", "score", result("no-hardcoded-secrets", "axis", "care")},
		{"result status", "score", result("no-hardcoded-secrets", "status", "fail")},
		{"result status with a matching score", "results", func(m map[string]any) {
			// ci-configured weighs nothing: flipping it leaves the score
			// true, so only re-running the check shows the lie.
			for _, r := range m["results"].([]any) {
				if r := r.(map[string]any); r["check"] == "ci-configured" {
					r["status"] = "pass"
					r["summary"] = "GitHub Actions"
				}
			}
		}},
		{"overall score", "score", set("score.overall", 12.5)},
		{"verdict", "score", set("score.verdict", "fail")},
		{"axis coverage", "score", set("score.axes.safety.coverage", 0.1)},
		{"formula", "schema", set("score.formula", "attest-lenient@9")},
		{"unknown check version", "score", result("skill-body", "version", "9.9.9")},
		{"subject digest", "subject digest", set("subject.digest.sha256", strings.Repeat("ab", 32))},
		{"schema", "schema", set("grants", "all")},
		{"suite version", "suite", set("suite.version", "9.9.9")},
		{"catalog digest", "suite", set("suite.catalogDigest", "sha256:"+strings.Repeat("0", 64))},
		{"dropped result", "suite", func(m map[string]any) {
			rs := m["results"].([]any)
			m["results"] = rs[1:]
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m map[string]any
			json.Unmarshal(readReport(t), &m)
			c.alter(m)
			rep, _ := json.Marshal(m)
			b := signed(t, rep, k)
			r := Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: sample})
			a := answers(r)
			if a[c.answer].Status != Fail || a["signature"].Status != OK {
				t.Errorf("%s: %s is %s (%s), want fail; answers %+v", c.name, c.answer, a[c.answer].Status, a[c.answer].Reason, r.Answers)
			}
		})
	}
	// Statement fields, altered and re-signed.
	for _, c := range []struct {
		name  string
		alter func(*v1.Statement)
	}{
		{"predicate type", func(s *v1.Statement) { s.PredicateType = "https://slsa.dev/provenance/v1" }},
		{"subject name", func(s *v1.Statement) { s.Subject[0].Name = "skill:other" }},
		{"subject digest in the statement", func(s *v1.Statement) { s.Subject[0].Digest["sha256"] = strings.Repeat("cd", 32) }},
	} {
		st, err := sign.Statement(readReport(t))
		if err != nil {
			t.Fatal(err)
		}
		c.alter(st)
		b, err := sign.BundleStatement(context.Background(), st, k)
		if err != nil {
			t.Fatal(err)
		}
		if a := answers(Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{k.Public()}})); a["statement"].Status != Fail {
			t.Errorf("%s: statement %+v", c.name, a["statement"])
		}
	}
}

func FuzzVerify(f *testing.F) {
	k, _ := keys.Generate(keys.Ed25519)
	rep, _ := os.ReadFile("../testdata/report/skill-pass.json")
	b, _ := sign.Bundle(context.Background(), rep, k)
	f.Add(b)
	f.Add(rep)
	f.Add([]byte(`{"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<18 {
			return
		}
		r := Verify(context.Background(), data, Options{Keys: []crypto.PublicKey{k.Public()}})
		if len(r.Answers) == 0 {
			t.Fatal("no answer")
		}
	})
}

func TestPolicy(t *testing.T) {
	k, _ := keys.Generate(keys.Ed25519)
	b := signed(t, readReport(t), k)
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name string
		p    policy.Consumer
		ok   bool
		want string
	}{
		{"met", policy.Consumer{MinOverall: f(90), MinAxis: map[checks.Axis]float64{checks.Safety: 90}, MustPass: []string{"no-hardcoded-secrets"}, AllowedSuites: []string{"attest-default"}, AllowedFormulas: []string{"attest-default@1"}}, true, ""},
		{"min overall", policy.Consumer{MinOverall: f(99.9)}, false, "is under 99.9"},
		{"min axis", policy.Consumer{MinAxis: map[checks.Axis]float64{checks.Care: 100.1}}, false, "care"},
		{"unmeasured axis", policy.Consumer{MinAxis: map[checks.Axis]float64{checks.Behavior: 10}}, false, "behavior was not measured"},
		{"must pass", policy.Consumer{MustPass: []string{"skill-allowed-tools", "no-such-check"}}, false, "no-such-check has no result"},
		{"log", policy.Consumer{RequireLog: true}, false, "log entry is required"},
		{"suite", policy.Consumer{AllowedSuites: []string{"attest-default@9.0.0"}}, false, "is not allowed"},
		{"age", policy.Consumer{MaxAgeDays: f(1)}, false, "days old"},
	} {
		p := c.p
		now := time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC)
		if c.name == "age" {
			now = now.AddDate(0, 0, 3)
		}
		r := Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{k.Public()}, Policy: &p, Now: now})
		a := answers(r)["policy"]
		if (a.Status == OK) != c.ok || !strings.Contains(a.Reason, c.want) {
			t.Errorf("%s: %+v", c.name, a)
		}
	}
	// The policy's trusted signers stand in for --key; another signer fails.
	other, _ := keys.Generate(keys.Ed25519)
	p := policy.Consumer{TrustedSigners: []string{"k.pub.pem"}}
	if a := answers(Verify(context.Background(), b, Options{Policy: &p, Keys: []crypto.PublicKey{k.Public()}})); a["signature"].Status != OK || a["policy"].Status != OK {
		t.Errorf("trusted signer: %+v", a)
	}
	if a := answers(Verify(context.Background(), b, Options{Policy: &p, Keys: []crypto.PublicKey{other.Public()}})); a["signature"].Status != Fail || a["policy"].Status != Fail {
		t.Errorf("untrusted signer: %+v", a)
	}
}

func TestVerificationSummary(t *testing.T) {
	publisher, _ := keys.Generate(keys.Ed25519)
	verifier, _ := keys.Generate(keys.ECDSAP256)
	b := signed(t, readReport(t), publisher)
	f := 50.0
	for _, c := range []struct {
		p    policy.Consumer
		want string
	}{{policy.Consumer{MinOverall: &f}, "PASSED"}, {policy.Consumer{RequireLog: true}, "FAILED"}} {
		p := c.p
		r := Verify(context.Background(), b, Options{Keys: []crypto.PublicKey{publisher.Public()}, Policy: &p})
		pol, _ := json.Marshal(p)
		signer := func(ctx context.Context, st *v1.Statement) ([]byte, error) {
			return sign.BundleStatement(ctx, st, verifier)
		}
		out, err := Summary(context.Background(), r, "policy.json", pol, "report.sigstore.json", signer, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		// sigstore-go verifies the summary with the verifier's key.
		var vb bundle.Bundle
		if err := vb.UnmarshalJSON(out); err != nil {
			t.Fatal(err)
		}
		id, _ := keys.ID(verifier.Public())
		if err := sigstoreVerify(&vb, verifier.Public(), id); err != nil {
			t.Fatalf("the summary does not verify: %v", err)
		}
		env, _ := vb.Envelope()
		payload, _ := env.RawEnvelope().DecodeB64Payload()
		var st struct {
			PredicateType string `json:"predicateType"`
			Subject       []struct{ Name string }
			Predicate     struct {
				VerificationResult string   `json:"verificationResult"`
				VerifiedLevels     []string `json:"verifiedLevels"`
				Policy             struct{ Digest map[string]string }
				InputAttestations  []struct{ Digest map[string]string } `json:"inputAttestations"`
			}
		}
		if err := json.Unmarshal(payload, &st); err != nil {
			t.Fatal(err)
		}
		if st.PredicateType != VSAPredicateType || st.Predicate.VerificationResult != c.want || st.Subject[0].Name != "skill:pdf-forms" ||
			len(st.Predicate.Policy.Digest["sha256"]) != 64 || st.Predicate.InputAttestations[0].Digest["sha256"] != r.payloadSHA256 {
			t.Errorf("summary %+v (payload %s)", st, payload)
		}
		// A pass vouches for what was checked, a failure for nothing.
		wantLevels := []string{LevelSignature, LevelScore, LevelPolicy}
		if c.want == "FAILED" {
			wantLevels = []string{}
		}
		if !slices.Equal(st.Predicate.VerifiedLevels, wantLevels) {
			t.Errorf("%s: verifiedLevels %v, want %v", c.want, st.Predicate.VerifiedLevels, wantLevels)
		}
	}
}

// The report schema holds for every golden report and refuses a broken one.
func TestSchemaOnGoldenReports(t *testing.T) {
	files, _ := filepath.Glob("../testdata/report/*.json")
	if len(files) < 5 {
		t.Fatalf("%d golden reports", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if err := schemaValid(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		m["score"].(map[string]any)["verdict"] = "maybe"
		bad, _ := json.Marshal(m)
		if schemaValid(bad) == nil {
			t.Errorf("%s: a verdict outside the enum passed", f)
		}
	}
}

// FuzzStatement: the statement reader never panics, and what it accepts
// is a valid Statement whose predicate is a JSON object.
func FuzzStatement(f *testing.F) {
	rep, _ := os.ReadFile("../testdata/report/skill-pass.json")
	st, _ := sign.Statement(rep)
	payload, _ := protojson.Marshal(st)
	f.Add(payload)
	f.Add([]byte(`{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"a","digest":{"sha256":"00"}}],"predicateType":"x","predicate":{}}`))
	f.Add([]byte(`{"_type":"https://in-toto.io/Statement/v1","_type":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, pred, err := readStatement(data)
		if err != nil {
			return
		}
		if st.Validate() != nil || len(pred) == 0 || pred[0] != '{' || !json.Valid(pred) {
			t.Fatalf("accepted %q", data)
		}
	})
}

// The statement reader refuses what protojson would refuse or read
// differently: a repeated field, an unknown one, trailing data.
func TestStatementStrict(t *testing.T) {
	good := `{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"skill:a","digest":{"sha256":"` + strings.Repeat("0", 64) + `"}}],"predicateType":"p","predicate":{"a":1}}`
	if _, pred, err := readStatement([]byte(good)); err != nil || string(pred) != `{"a":1}` {
		t.Fatalf("good statement: %v %s", err, pred)
	}
	for name, bad := range map[string]string{
		"repeated predicate": strings.Replace(good, `"predicate":{"a":1}`, `"predicate":{"a":1},"predicate":{"a":2}`, 1),
		"unknown field":      strings.Replace(good, `"predicate":`, `"extra":1,"predicate":`, 1),
		"trailing data":      good + `{}`,
		"array predicate":    strings.Replace(good, `{"a":1}`, `[1]`, 1),
		"no subject digest":  strings.Replace(good, `"digest":{"sha256":"`+strings.Repeat("0", 64)+`"}`, `"digest":{}`, 1),
		"wrong type":         strings.Replace(good, "Statement/v1", "Statement/v9", 1),
	} {
		if _, _, err := readStatement([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
