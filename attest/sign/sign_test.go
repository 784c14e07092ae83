package sign

import (
	"context"
	"crypto"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/metahub-ai/attest/attest/keys"
)

func report(t *testing.T) []byte {
	b, err := os.ReadFile("../../testdata/report/skill-pass.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// verifyWith checks a bundle with sigstore-go's own verifier, trusting only
// the given public key under its key id: the project's verify code plays
// no part.
func verifyWith(t *testing.T, bundleJSON []byte, pub crypto.PublicKey) (*verify.VerificationResult, error) {
	t.Helper()
	var b bundle.Bundle
	if err := b.UnmarshalJSON(bundleJSON); err != nil {
		return nil, err
	}
	id, _ := keys.ID(pub)
	v, err := signature.LoadDefaultVerifier(pub)
	if err != nil {
		t.Fatal(err)
	}
	tm := root.NewTrustedPublicKeyMaterialFromMapping(map[string]*root.ExpiringKey{id: root.NewExpiringKey(v, time.Time{}, time.Time{})})
	ver, err := verify.NewVerifier(tm, verify.WithNoObserverTimestamps())
	if err != nil {
		t.Fatal(err)
	}
	return ver.Verify(&b, verify.NewPolicy(verify.WithoutArtifactUnsafe(), verify.WithKey()))
}

func TestBundleVerifiesWithSigstoreGo(t *testing.T) {
	rep := report(t)
	for _, alg := range []string{keys.Ed25519, keys.ECDSAP256} {
		k, err := keys.Generate(alg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Bundle(context.Background(), rep, k)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		res, err := verifyWith(t, out, k.Public())
		if err != nil {
			t.Fatalf("%s: sigstore-go rejects the bundle: %v", alg, err)
		}
		// The statement that verified is the report's.
		st := res.Statement
		if st == nil || st.PredicateType != PredicateType || st.Type != v1.StatementTypeUri || len(st.Subject) != 1 ||
			st.Subject[0].Name != "skill:pdf-forms" || len(st.Subject[0].Digest["sha256"]) != 64 {
			t.Errorf("%s: statement %+v", alg, st)
		}
		var raw map[string]any
		json.Unmarshal(out, &raw)
		if mt := raw["mediaType"]; mt != "application/vnd.dev.sigstore.bundle.v0.3+json" {
			t.Errorf("%s: media type %v", alg, mt)
		}
		env := raw["dsseEnvelope"].(map[string]any)
		for _, s := range env["signatures"].([]any) {
			if kid, ok := s.(map[string]any)["keyid"]; ok && kid != "" {
				t.Errorf("%s: the DSSE keyid must stay empty inside a bundle, is %v", alg, kid)
			}
		}

		// Another key does not verify it.
		other, _ := keys.Generate(alg)
		if _, err := verifyWith(t, out, other.Public()); err == nil {
			t.Errorf("%s: verified with the wrong key", alg)
		}
		// A changed payload does not verify.
		tampered := strings.Replace(string(out), `"payload":"`, `"payload":"eyJ`, 1)
		if _, err := verifyWith(t, []byte(tampered), k.Public()); err == nil {
			t.Errorf("%s: a tampered payload verified", alg)
		}
	}
}

func TestStatementRefusesNonReports(t *testing.T) {
	for _, in := range []string{`[]`, `{"subject": {"kind": "skill"}}`, `not json`} {
		if _, err := Statement([]byte(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
	st, err := Statement(report(t))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := protojson.Marshal(st)
	if !strings.Contains(string(b), `"_type":"https://in-toto.io/Statement/v1"`) || !strings.Contains(string(b), `"predicateType":"`+PredicateType+`"`) {
		t.Errorf("serialised statement: %.200s", b)
	}
}

func FuzzStatement(f *testing.F) {
	f.Add([]byte(`{"subject": {"kind": "skill", "name": "x", "digest": {"sha256": "` + strings.Repeat("a", 64) + `"}}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		Statement(data)
	})
}

// The release attestation names every file of checksums.txt by its digest;
// a malformed line, or a path in place of a file name, is refused.
func TestReleaseStatement(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	st, err := ReleaseStatement([]byte(a+"  attest_0.2.0_linux_amd64.tar.gz\n"+b+"  attest_0.2.0_windows_arm64.zip\n"), "pkg:github/metahub-ai/attest@v0.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if st.PredicateType != ReleasePredicateType || len(st.Subject) != 2 || st.Subject[1].Name != "attest_0.2.0_windows_arm64.zip" || st.Subject[1].Digest["sha256"] != b {
		t.Fatalf("%v", st)
	}
	if st.Predicate.AsMap()["purl"] != "pkg:github/metahub-ai/attest@v0.2.0" {
		t.Errorf("predicate %v", st.Predicate.AsMap())
	}
	for _, bad := range []string{"", "xyz  file\n", a + "  ../etc/passwd\n", a + "  ..\n", a + " one-space\n"} {
		if _, err := ReleaseStatement([]byte(bad), "pkg:x"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// FuzzReleaseStatement: any checksums text either is refused or gives a
// valid statement whose every subject is a plain file name with a sha256.
func FuzzReleaseStatement(f *testing.F) {
	f.Add([]byte(strings.Repeat("a", 64) + "  attest_0.2.0_linux_amd64.tar.gz\n"))
	f.Add([]byte(strings.Repeat("0", 64) + "  *x.zip\n\n" + strings.Repeat("f", 64) + "  y\n"))
	f.Add([]byte("not a checksum\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > MaxChecksumsBytes {
			return
		}
		st, err := ReleaseStatement(data, "pkg:github/metahub-ai/attest@v0.0.0")
		if err != nil {
			return
		}
		if err := st.Validate(); err != nil || len(st.Subject) == 0 {
			t.Fatalf("an invalid statement: %v %v", err, st)
		}
		for _, s := range st.Subject {
			if s.Name == "" || strings.Contains(s.Name, "/") || len(s.Digest["sha256"]) != 64 {
				t.Fatalf("subject %v", s)
			}
		}
	})
}
