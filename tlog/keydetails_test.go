package tlog_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	v1 "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	pb "github.com/sigstore/rekor-tiles/v2/pkg/generated/protobuf"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/metahub-ai/attest/tlog"
)

// entryRequest is a hashedrekord request: key's signature over the
// sha256 of a message, the key labelled details.
func entryRequest(t *testing.T, key crypto.Signer, details v1.PublicKeyDetails, message string) []byte {
	t.Helper()
	digest := sha256.Sum256([]byte(message))
	var sig []byte
	var err error
	switch k := key.(type) {
	case ed25519.PrivateKey:
		sig = ed25519.Sign(k, digest[:])
	default:
		sig, err = key.Sign(rand.Reader, digest[:], crypto.SHA256)
	}
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	req := &pb.CreateEntryRequest{Spec: &pb.CreateEntryRequest_HashedRekordRequestV002{HashedRekordRequestV002: &pb.HashedRekordRequestV002{
		Digest: digest[:],
		Signature: &pb.Signature{Content: sig, Verifier: &pb.Verifier{
			Verifier:   &pb.Verifier_PublicKey{PublicKey: &pb.PublicKey{RawBytes: der}},
			KeyDetails: details,
		}},
	}}}
	b, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEntryKeyDetailsMatchTheKey: an entry whose key details do not
// describe its key, or describe pure ed25519 (which signs a message, not
// the digest a hashedrekord carries), gets a 400 with the reason; the
// log stays up and takes the next valid entry.
func TestEntryKeyDetailsMatchTheKey(t *testing.T) {
	_, url := startLog(t)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	post := func(t *testing.T, body []byte) (int, string) {
		t.Helper()
		resp, err := http.Post(url+tlog.EntriesPath, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Errorf("no answer: %v", err)
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		name    string
		key     crypto.Signer
		details v1.PublicKeyDetails
		want    string
	}{
		{"pure ed25519", edKey, v1.PublicKeyDetails_PKIX_ED25519, "PKIX_ED25519_PH"},
		{"an RSA key labelled ECDSA P-256", rsaKey, v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256, "RSA"},
		{"a P-384 key labelled P-256", ec384, v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256, "P-384"},
		{"an ECDSA key labelled RSA", ecKey, v1.PublicKeyDetails_PKIX_RSA_PKCS1V15_2048_SHA256, "ECDSA"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := post(t, entryRequest(t, c.key, c.details, c.name))
			var msg struct{ Message string }
			json.Unmarshal([]byte(body), &msg)
			if code != http.StatusBadRequest || !strings.Contains(msg.Message, c.want) {
				t.Errorf("%d %s, want 400 naming %s", code, body, c.want)
			}
		})
	}
	// The twin: the same shapes, labelled truly, are logged.
	for _, c := range []struct {
		key     crypto.Signer
		details v1.PublicKeyDetails
	}{{ecKey, v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256}, {rsaKey, v1.PublicKeyDetails_PKIX_RSA_PKCS1V15_2048_SHA256}} {
		if code, body := post(t, entryRequest(t, c.key, c.details, "honest "+c.details.String())); code != http.StatusCreated {
			t.Errorf("%s: %d %s", c.details, code, body)
		}
	}
}
