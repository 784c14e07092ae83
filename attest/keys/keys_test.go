package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAndLoad(t *testing.T) {
	for _, alg := range []string{Ed25519, ECDSAP256} {
		k, err := Generate(alg)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(t.TempDir(), "signer")
		id, err := Write(name, k)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(name + ".pem")
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: private key mode %v %v", alg, st.Mode(), err)
		}
		pubPEM, _ := os.ReadFile(name + ".pub.pem")
		b, _ := pem.Decode(pubPEM)
		sum := sha256.Sum256(b.Bytes)
		if id != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: key id %s is not the SHA-256 of the SPKI DER", alg, id)
		}
		if _, err := x509.ParsePKIXPublicKey(b.Bytes); err != nil {
			t.Errorf("%s: public key is not SPKI: %v", alg, err)
		}
		priv, err := LoadPrivate(name + ".pem")
		if err != nil {
			t.Fatal(err)
		}
		pub, err := LoadPublic(name + ".pub.pem")
		if err != nil {
			t.Fatal(err)
		}
		switch p := pub.(type) {
		case ed25519.PublicKey:
			if !p.Equal(priv.Public()) {
				t.Error("ed25519 keys do not match")
			}
		case *ecdsa.PublicKey:
			if !p.Equal(priv.Public()) {
				t.Error("ecdsa keys do not match")
			}
		}
		before, _ := os.ReadFile(name + ".pem")
		if _, err := Write(name, k); !errors.Is(err, ErrExists) {
			t.Errorf("%s: a second write: %v", alg, err)
		}
		if after, _ := os.ReadFile(name + ".pem"); string(after) != string(before) {
			t.Error("a key was overwritten")
		}
	}
	if _, err := Generate("rsa"); err == nil {
		t.Error("rsa accepted")
	}
	if _, err := LoadPublic(filepath.Join(t.TempDir(), "absent.pem")); err == nil {
		t.Error("a missing key loaded")
	}
}

func FuzzLoad(f *testing.F) {
	k, _ := Generate(Ed25519)
	der, _ := x509.MarshalPKCS8PrivateKey(k)
	f.Add(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "k.pem")
		os.WriteFile(p, data, 0o600)
		LoadPrivate(p)
		LoadPublic(p)
	})
}
