package tlog_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	sgverify "github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/attest/sign/sigstoretest"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/tlog"
	"github.com/metahub-ai/attest/verify"
)

// startLog runs a log in a temporary directory behind a loopback server
// whose host is the log's origin.
func startLog(t testing.TB) (*tlog.Server, string) {
	t.Helper()
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	hs := httptest.NewUnstartedServer(nil)
	u, _ := url.Parse("http://" + hs.Listener.Addr().String())
	s, err := tlog.Open(context.Background(), tlog.Options{Dir: t.TempDir(), Origin: u.Hostname(), Signer: k})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = s
	hs.Start()
	t.Cleanup(func() {
		hs.Close()
		s.Close(context.Background())
	})
	return s, hs.URL
}

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

// A bundle signed with a log URL carries the entry, its inclusion proof
// and the signed checkpoint; it verifies offline against a trusted root
// naming the log, through attest's verifier and through sigstore-go used
// directly; a trusted root naming another key for the log refuses the
// checkpoint.
func TestSignedWithLog(t *testing.T) {
	logSrv, logURL := startLog(t)
	key, _ := keys.Generate(keys.ECDSAP256)
	b, err := sign.SignReport(context.Background(), report(t), sign.Signing{Key: key, Log: logURL})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(logURL)
	tr, err := tlog.TrustedRoot(logURL, u.Hostname(), logSrv.PublicKey(), time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	opts := verify.Options{Keys: []crypto.PublicKey{key.Public()}, TrustedRoot: tr}
	a := answers(verify.Verify(context.Background(), b, opts))
	if a["signature"].Status != verify.OK || a["transparency log"].Status != verify.OK || !strings.Contains(a["transparency log"].Reason, "entry 0 of "+logURL) {
		t.Fatalf("%+v", a)
	}

	// sigstore-go, independently.
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	trusted, err := root.NewTrustedRootFromJSON(tr)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := keys.ID(key.Public())
	v, _ := signature.LoadDefaultVerifier(key.Public())
	km := root.NewTrustedPublicKeyMaterialFromMapping(map[string]*root.ExpiringKey{id: root.NewExpiringKey(v, time.Time{}, time.Time{})})
	ver, err := sgverify.NewVerifier(root.TrustedMaterialCollection{trusted, km}, sgverify.WithTransparencyLog(1), sgverify.WithNoObserverTimestamps())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ver.Verify(&pb, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithKey())); err != nil {
		t.Fatalf("sigstore-go: %v", err)
	}

	// Another key for the same log URL: the checkpoint signature fails;
	// the signature itself still holds.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	wrong, _ := tlog.TrustedRoot(logURL, u.Hostname(), other.Public(), time.Now().Add(-time.Hour))
	opts.TrustedRoot = wrong
	r := verify.Verify(context.Background(), b, opts)
	a = answers(r)
	if !r.Failed || a["transparency log"].Status != verify.Fail || !strings.Contains(a["transparency log"].Reason, "checkpoint signature") || a["signature"].Status != verify.OK {
		t.Errorf("another log key: %+v / %+v", a["transparency log"], a["signature"])
	}
	// The same, with the trusted root keeping the log's id: sigstore-go
	// refuses the entry, and attest's answer names the checkpoint.
	tl, _ := tlog.Transparency(logURL, u.Hostname(), logSrv.PublicKey(), time.Now().Add(-time.Hour))
	tl.PublicKey = other.Public()
	sameID, _ := root.NewTrustedRoot(root.TrustedRootMediaType01, nil, nil, nil, map[string]*root.TransparencyLog{"x": tl})
	ver, _ = sgverify.NewVerifier(root.TrustedMaterialCollection{sameID, km}, sgverify.WithTransparencyLog(1), sgverify.WithNoObserverTimestamps())
	if _, err := ver.Verify(&pb, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithKey())); err == nil {
		t.Error("sigstore-go accepted a checkpoint signed by another key")
	}
	sameJSON, _ := sameID.MarshalJSON()
	opts.TrustedRoot = sameJSON
	if a := answers(verify.Verify(context.Background(), b, opts)); a["transparency log"].Status != verify.Fail || !strings.Contains(a["transparency log"].Reason, "checkpoint signature") {
		t.Errorf("another key under the log's id: %+v", a["transparency log"])
	}
}

// Keyless with a local certificate authority, a local timestamp authority
// and this log: verified against the identity, refused for another
// identity or issuer.
func TestKeylessWithLog(t *testing.T) {
	logSrv, logURL := startLog(t)
	s := sigstoretest.Start(t)
	u, _ := url.Parse(logURL)
	tl, err := tlog.Transparency(logURL, u.Hostname(), logSrv.PublicKey(), time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	s.Logs = map[string]*root.TransparencyLog{hex.EncodeToString(tl.ID): tl}
	s.LogServices = []root.Service{{URL: logURL, MajorAPIVersion: 2, ValidityPeriodStart: time.Now().Add(-time.Hour)}}
	sc, err := root.NewSigningConfigFromJSON(s.SigningConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sign.SignReport(context.Background(), report(t), sign.Signing{IDToken: s.Token(t, "publisher@example.com", sigstoretest.Issuer), Config: sc})
	if err != nil {
		t.Fatal(err)
	}
	tr := s.TrustedRoot(t)
	for _, c := range []struct {
		id   policy.Identity
		want string
	}{
		{policy.Identity{Subject: "publisher@example.com", Issuer: sigstoretest.Issuer}, verify.OK},
		{policy.Identity{Subject: "mallory@example.com", Issuer: sigstoretest.Issuer}, verify.Fail},
		{policy.Identity{Subject: "publisher@example.com", Issuer: "https://accounts.example.org"}, verify.Fail},
	} {
		a := answers(verify.Verify(context.Background(), b, verify.Options{TrustedRoot: tr, Identities: []policy.Identity{c.id}}))
		if a["signature"].Status != c.want || a["transparency log"].Status != verify.OK || a["validity"].Status != verify.OK {
			t.Errorf("%s: %+v / %+v / %+v", c.id, a["signature"], a["transparency log"], a["validity"])
		}
	}
}
