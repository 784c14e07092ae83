package tlog_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/metahub-ai/attest/tlog"
)

// FuzzCheckpoint: the checkpoint readers never panic, and accept only a
// checkpoint signed by the log's key.
func FuzzCheckpoint(f *testing.F) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	f.Add([]byte("127.0.0.1\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— 127.0.0.1 AAAA\n"))
	f.Add([]byte(`{"verificationMaterial":{"tlogEntries":[{"inclusionProof":{"checkpoint":{"envelope":"x\n"}}}]}}`))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cp, err := tlog.CheckpointOf(data)
		if err != nil {
			return
		}
		if _, err := tlog.OpenCheckpoint(cp, "127.0.0.1", k.Public()); err == nil {
			t.Fatalf("accepted a checkpoint no one signed: %q", data)
		}
	})
}

// FuzzCreateEntry: the write endpoint answers any body with a 4xx (or a
// 201 for a valid entry), never a panic or a 5xx.
func FuzzCreateEntry(f *testing.F) {
	s, _ := startLog(f)
	f.Add([]byte(`{"hashedRekordRequestV002":{"digest":"AAAA","signature":{"content":"AAAA","verifier":{"publicKey":{"rawBytes":"AAAA"},"keyDetails":"PKIX_ECDSA_P256_SHA_256"}}}}`))
	f.Add([]byte(`{"dsseRequestV002":{}}`))
	// Pure ed25519 made rekor-tiles panic (no hash to size the digest by).
	f.Add([]byte(`{"hashedRekordRequestV002":{"digest":"AAAA","signature":{"content":"AAAA","verifier":{"publicKey":{"rawBytes":"MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE="},"keyDetails":"PKIX_ED25519"}}}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, tlog.EntriesPath, bytes.NewReader(body))
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code >= 500 || w.Code < 200 {
			t.Fatalf("%d for %q: %s", w.Code, body, w.Body)
		}
	})
}
