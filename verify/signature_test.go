package verify_test

import (
	"context"
	"crypto"
	"os"
	"strings"
	"testing"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	sgverify "github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/attest/sign/sigstoretest"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/verify"
)

const publisher = "publisher@example.com"

func report(t *testing.T) []byte {
	b, err := os.ReadFile("../testdata/report/skill-pass.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func answers(r *verify.Result) map[string]verify.Answer {
	m := map[string]verify.Answer{}
	for _, a := range r.Answers {
		m[a.Name] = a
	}
	return m
}

func keyless(t *testing.T, s *sigstoretest.Sigstore, subject, issuer string) []byte {
	t.Helper()
	sc, err := root.NewSigningConfigFromJSON(s.SigningConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sign.SignReport(context.Background(), report(t), sign.Signing{IDToken: s.Token(t, subject, issuer), Config: sc})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A keyless bundle made against a local CA and timestamp authority
// verifies against their trusted root for the expected identity, and is
// refused for another identity or issuer; without an expected identity it
// fails, and is a warning only with InsecureIgnoreSigner, never a pass.
func TestKeyless(t *testing.T) {
	s := sigstoretest.Start(t)
	b := keyless(t, s, publisher, sigstoretest.Issuer)
	tr := s.TrustedRoot(t)
	check := func(opts verify.Options) map[string]verify.Answer {
		return answers(verify.Verify(context.Background(), b, opts))
	}
	id := policy.Identity{Subject: publisher, Issuer: sigstoretest.Issuer}

	a := check(verify.Options{TrustedRoot: tr, Identities: []policy.Identity{id}})
	if a["signature"].Status != verify.OK || !strings.Contains(a["signature"].Reason, publisher) {
		t.Errorf("expected identity: %+v", a["signature"])
	}
	if a["validity"].Status != verify.OK || !strings.Contains(a["validity"].Reason, "timestamp authority") {
		t.Errorf("a signed timestamp dates it: %+v", a["validity"])
	}
	if a["statement"].Status != verify.OK || a["score"].Status != verify.OK {
		t.Errorf("%+v", a)
	}

	for name, want := range map[string]policy.Identity{
		"wrong identity":   {Subject: "someone@example.com", Issuer: sigstoretest.Issuer},
		"wrong issuer":     {Subject: publisher, Issuer: "https://token.actions.githubusercontent.com"},
		"regexp not whole": {SubjectRegexp: "publisher@example", Issuer: sigstoretest.Issuer},
	} {
		a := check(verify.Options{TrustedRoot: tr, Identities: []policy.Identity{want}})
		if a["signature"].Status != verify.Fail || !strings.Contains(a["signature"].Reason, "not by a trusted identity") || !strings.Contains(a["signature"].Reason, publisher) {
			t.Errorf("%s: %+v", name, a["signature"])
		}
	}
	if a := check(verify.Options{TrustedRoot: tr, Identities: []policy.Identity{{SubjectRegexp: `[a-z]+@example\.com`, Issuer: sigstoretest.Issuer}}}); a["signature"].Status != verify.OK {
		t.Errorf("regexp identity: %+v", a["signature"])
	}

	if a := check(verify.Options{TrustedRoot: tr}); a["signature"].Status != verify.Fail || !strings.Contains(a["signature"].Reason, "no trusted signer given") {
		t.Errorf("no identity: %+v", a["signature"])
	}
	if a := check(verify.Options{TrustedRoot: tr, InsecureIgnoreSigner: true}); a["signature"].Status != verify.Warn || !strings.Contains(a["signature"].Reason, "no identity was expected") {
		t.Errorf("no identity, insecure: %+v", a["signature"])
	}
	if a := check(verify.Options{TrustedRoot: tr, RequireSignature: true}); a["signature"].Status != verify.Fail {
		t.Errorf("no identity, signature required: %+v", a["signature"])
	}
	if a := check(verify.Options{Identities: []policy.Identity{id}}); a["signature"].Status != verify.Fail || !strings.Contains(a["signature"].Reason, "--trusted-root") {
		t.Errorf("no trusted root: %+v", a["signature"])
	}
	other := sigstoretest.Start(t)
	if a := check(verify.Options{TrustedRoot: other.TrustedRoot(t), Identities: []policy.Identity{id}}); a["signature"].Status != verify.Fail {
		t.Errorf("another deployment's root: %+v", a["signature"])
	}
}

// sigstore-go, used directly as an independent library, accepts the
// keyless bundle for the identity and refuses another.
func TestKeylessIndependently(t *testing.T) {
	s := sigstoretest.Start(t)
	b := keyless(t, s, publisher, sigstoretest.Issuer)
	tr, err := root.NewTrustedRootFromJSON(s.TrustedRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	v, err := sgverify.NewVerifier(tr, sgverify.WithSignedTimestamps(1))
	if err != nil {
		t.Fatal(err)
	}
	for subject, ok := range map[string]bool{publisher: true, "mallory@example.com": false} {
		ci, err := sgverify.NewShortCertificateIdentity(sigstoretest.Issuer, "", subject, "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.Verify(&pb, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithCertificateIdentity(ci)))
		if (err == nil) != ok {
			t.Errorf("%s: %v", subject, err)
		}
	}
}

// The certificate authority refuses a token another issuer key signed:
// the keyless signer's identity is the token's, checked where it is
// certified.
func TestKeylessForgedToken(t *testing.T) {
	s, forger := sigstoretest.Start(t), sigstoretest.Start(t)
	sc, _ := root.NewSigningConfigFromJSON(s.SigningConfig(t))
	_, err := sign.SignReport(context.Background(), report(t), sign.Signing{IDToken: forger.Token(t, publisher, sigstoretest.Issuer), Config: sc})
	if err == nil || s.Requests != 0 {
		t.Fatalf("a forged token got a certificate (%d): %v", s.Requests, err)
	}
}

// Key-signed bundles, ed25519 and ECDSA P-256, verify with the key that
// signed them and fail with another key or a changed payload.
func TestKeySigned(t *testing.T) {
	for _, alg := range []string{keys.Ed25519, keys.ECDSAP256} {
		k, _ := keys.Generate(alg)
		other, _ := keys.Generate(alg)
		good, err := sign.Bundle(context.Background(), report(t), k)
		if err != nil {
			t.Fatal(err)
		}
		tampered := []byte(strings.Replace(string(good), `"payload":"`, `"payload":"ey`, 1))
		for _, c := range []struct {
			name string
			b    []byte
			key  crypto.PublicKey
			want string
		}{{"good", good, k.Public(), verify.OK}, {"wrong key", good, other.Public(), verify.Fail}, {"tampered", tampered, k.Public(), verify.Fail}} {
			got := answers(verify.Verify(context.Background(), c.b, verify.Options{Keys: []crypto.PublicKey{c.key}}))["signature"]
			if got.Status != c.want {
				t.Errorf("%s %s: %+v", alg, c.name, got)
			}
		}
		// Nobody trusted: a failure in one line, a warning only when asked.
		if got := answers(verify.Verify(context.Background(), good, verify.Options{}))["signature"]; got.Status != verify.Fail || !strings.Contains(got.Reason, "--insecure-ignore-signer") {
			t.Errorf("%s, no key: %+v", alg, got)
		}
		if got := answers(verify.Verify(context.Background(), good, verify.Options{InsecureIgnoreSigner: true}))["signature"]; got.Status != verify.Warn {
			t.Errorf("%s, no key, insecure: %+v", alg, got)
		}
	}
}
