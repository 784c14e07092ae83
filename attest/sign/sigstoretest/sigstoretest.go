// Package sigstoretest runs a local Sigstore deployment for tests: a
// certificate authority that speaks Fulcio's v2 signingCert API and
// checks the OIDC token and the proof of possession as Fulcio does, an
// RFC 3161 timestamp authority, an OIDC issuer's tokens, and the trusted
// root and signing config that name them. Everything is real crypto on
// loopback HTTP; the client code under test is sigstore-go's own.
package sigstoretest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	prototrustroot "github.com/sigstore/protobuf-specs/gen/pb-go/trustroot/v1"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// Issuer is the OIDC issuer whose tokens the local CA accepts.
const Issuer = "https://oidc.attest.test"

// Sigstore is a running local deployment.
type Sigstore struct {
	CA, TSA *httptest.Server
	// Logs are extra Rekor services and trusted logs (a local log).
	LogServices []root.Service
	Logs        map[string]*root.TransparencyLog

	rootCert, fulcioCert, tsaRoot, tsaInter, tsaLeaf *x509.Certificate
	fulcioKey, tsaLeafKey                            *ecdsa.PrivateKey
	oidcKey                                          *ecdsa.PrivateKey
	// Requests counts certificate requests served.
	Requests int
}

// Start runs the certificate authority and the timestamp authority until
// the test ends.
func Start(t testing.TB) *Sigstore {
	t.Helper()
	s := &Sigstore{}
	var err error
	must := func(e error) {
		if e != nil {
			t.Fatal(e)
		}
	}
	var rootKey, tsaRootKey, tsaInterKey *ecdsa.PrivateKey
	s.rootCert, rootKey, err = ca.GenerateRootCa()
	must(err)
	s.fulcioCert, s.fulcioKey, err = ca.GenerateFulcioIntermediate(s.rootCert, rootKey)
	must(err)
	s.tsaRoot, tsaRootKey, err = ca.GenerateRootCa()
	must(err)
	s.tsaInter, tsaInterKey, err = ca.GenerateTSAIntermediate(s.tsaRoot, tsaRootKey)
	must(err)
	s.tsaLeafKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	s.tsaLeaf, err = ca.GenerateTSALeafCert(time.Now().Add(-time.Minute), s.tsaLeafKey, s.tsaInter, tsaInterKey)
	must(err)
	s.oidcKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	s.CA = httptest.NewServer(http.HandlerFunc(s.signingCert))
	s.TSA = httptest.NewServer(http.HandlerFunc(s.timestamp))
	t.Cleanup(s.CA.Close)
	t.Cleanup(s.TSA.Close)
	return s
}

// Token mints an OIDC identity token for subject (an email, or a URI such
// as a workflow's) from issuer.
func (s *Sigstore) Token(t testing.TB, subject, issuer string) string {
	t.Helper()
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: s.oidcKey}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{
		"iss": issuer, "sub": subject, "aud": "sigstore",
		"iat": time.Now().Unix(), "exp": time.Now().Add(5 * time.Minute).Unix(),
	}
	if strings.Contains(subject, "@") {
		claims["email"], claims["email_verified"] = subject, true
	}
	tok, err := jwt.Signed(sig).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// signingCert is Fulcio's POST /api/v2/signingCert: the bearer token must
// be one this deployment's issuer signed; the proof of possession must be
// the requested key's signature over the token's subject.
func (s *Sigstore) signingCert(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/v2/signingCert" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		http.Error(w, "no bearer token", http.StatusUnauthorized)
		return
	}
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		http.Error(w, "bad token: "+err.Error(), http.StatusUnauthorized)
		return
	}
	var claims struct {
		Iss   string `json:"iss"`
		Sub   string `json:"sub"`
		Email string `json:"email"`
		Exp   int64  `json:"exp"`
	}
	if err := tok.Claims(&s.oidcKey.PublicKey, &claims); err != nil || time.Now().Unix() > claims.Exp {
		http.Error(w, fmt.Sprintf("token not signed by the issuer, or expired: %v", err), http.StatusUnauthorized)
		return
	}
	subject := claims.Sub
	if claims.Email != "" {
		subject = claims.Email
	}
	var req struct {
		PublicKeyRequest struct {
			PublicKey struct {
				Algorithm, Content string
			}
			ProofOfPossession string
		}
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&req); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	pub, err := cryptoutils.UnmarshalPEMToPublicKey([]byte(req.PublicKeyRequest.PublicKey.Content))
	if err != nil {
		http.Error(w, "bad public key: "+err.Error(), http.StatusBadRequest)
		return
	}
	ek, ok := pub.(*ecdsa.PublicKey)
	pop, _ := base64.StdEncoding.DecodeString(req.PublicKeyRequest.ProofOfPossession)
	d := sha256.Sum256([]byte(subject))
	if !ok || !ecdsa.VerifyASN1(ek, d[:], pop) {
		http.Error(w, "the proof of possession does not verify", http.StatusBadRequest)
		return
	}
	leaf, err := s.leaf(subject, claims.Iss, pub)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.Requests++
	var chain []string
	for _, c := range []*x509.Certificate{leaf, s.fulcioCert, s.rootCert} {
		chain = append(chain, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})))
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"signedCertificateDetachedSct": map[string]any{"chain": map[string]any{"certificates": chain}}})
}

// leaf issues a ten-minute code-signing certificate with Fulcio's
// extensions: the subject as email or URI SAN, the issuer (v1 raw, v2 DER).
func (s *Sigstore) leaf(subject, issuer string, pub crypto.PublicKey) (*x509.Certificate, error) {
	v2, err := asn1.MarshalWithParams(issuer, "utf8")
	if err != nil {
		return nil, err
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(10 * time.Minute),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		ExtraExtensions: []pkix.Extension{
			{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 1}, Value: []byte(issuer)},
			{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 8}, Value: v2},
		},
	}
	if u, err := url.Parse(subject); err == nil && u.Scheme != "" && !strings.Contains(subject, "@") {
		tmpl.URIs = []*url.URL{u}
	} else {
		tmpl.EmailAddresses = []string{subject}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, s.fulcioCert, pub, s.fulcioKey)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

// timestamp is an RFC 3161 timestamp authority.
func (s *Sigstore) timestamp(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil || r.Header.Get("Content-Type") != "application/timestamp-query" {
		http.Error(w, "a timestamp query, please", http.StatusBadRequest)
		return
	}
	req, err := timestamp.ParseRequest(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ts := timestamp.Timestamp{
		HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage,
		Time: time.Now(), Nonce: req.Nonce, Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 2},
	}
	resp, err := ts.CreateResponseWithOpts(s.tsaLeaf, s.tsaLeafKey, crypto.SHA256)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/timestamp-reply")
	w.Write(resp)
}

// TrustedRoot is the trusted_root.json naming this deployment's CA, its
// timestamp authority and its logs.
func (s *Sigstore) TrustedRoot(t testing.TB) []byte {
	t.Helper()
	start := time.Now().Add(-time.Hour)
	cas := []root.CertificateAuthority{&root.FulcioCertificateAuthority{Root: s.rootCert, Intermediates: []*x509.Certificate{s.fulcioCert}, ValidityPeriodStart: start, URI: s.CA.URL}}
	tsas := []root.TimestampingAuthority{&root.SigstoreTimestampingAuthority{Root: s.tsaRoot, Intermediates: []*x509.Certificate{s.tsaInter}, Leaf: s.tsaLeaf, ValidityPeriodStart: start, URI: s.TSA.URL}}
	logs := s.Logs
	if logs == nil {
		logs = map[string]*root.TransparencyLog{}
	}
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01, cas, nil, tsas, logs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SigningConfig is the signing_config.json naming this deployment's CA,
// timestamp authority and logs.
func (s *Sigstore) SigningConfig(t testing.TB) []byte {
	t.Helper()
	svc := func(u string) root.Service {
		return root.Service{URL: u, MajorAPIVersion: 1, ValidityPeriodStart: time.Now().Add(-time.Hour)}
	}
	anySvc := root.ServiceConfiguration{Selector: prototrustroot.ServiceSelector_ANY}
	sc, err := root.NewSigningConfig(root.SigningConfigMediaType02,
		[]root.Service{svc(s.CA.URL)}, []root.Service{svc(Issuer)},
		s.LogServices, anySvc, []root.Service{svc(s.TSA.URL)}, anySvc)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// String names the deployment in test logs.
func (s *Sigstore) String() string {
	return fmt.Sprintf("local Sigstore (CA %s, TSA %s)", s.CA.URL, s.TSA.URL)
}
