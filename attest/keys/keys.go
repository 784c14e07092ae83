// Package keys makes, writes and reads the signing keys of attestations:
// ed25519 (the default) or ECDSA P-256, PKCS#8 private keys and SPKI
// public keys in PEM, and the key id that policies name (hex SHA-256 of
// the SPKI DER).
package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/metahub-ai/attest/resolve"
)

// Algorithms.
const (
	Ed25519   = "ed25519"
	ECDSAP256 = "ecdsa-p256"
)

// Generate makes a new private key.
func Generate(alg string) (crypto.Signer, error) {
	switch alg {
	case Ed25519, "":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, err
	case ECDSAP256:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	return nil, fmt.Errorf("unknown key algorithm %q: want %s or %s", alg, Ed25519, ECDSAP256)
}

// ID is the key id of a public key: hex SHA-256 of its SPKI DER.
func ID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:]), nil
}

// ErrExists is returned rather than overwrite a key file.
var ErrExists = errors.New("already exists; attest never overwrites a key")

// Write writes NAME.pem (the PKCS#8 private key, mode 0600) and
// NAME.pub.pem (the SPKI public key), refusing to replace either file, and
// returns the key id.
func Write(name string, k crypto.Signer) (string, error) {
	priv, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return "", err
	}
	pub, err := x509.MarshalPKIXPublicKey(k.Public())
	if err != nil {
		return "", err
	}
	privPath, pubPath := name+".pem", name+".pub.pem"
	for _, p := range []string{privPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return "", fmt.Errorf("%s %w", p, ErrExists)
		}
	}
	if err := create(privPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: priv}), 0o600); err != nil {
		return "", err
	}
	if err := create(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644); err != nil {
		os.Remove(privPath)
		return "", err
	}
	return ID(k.Public())
}

// create writes a new file, never following or replacing an existing one.
func create(p string, data []byte, mode fs.FileMode) error {
	f, done, err := resolve.CreateNew(p, mode)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s %w", p, ErrExists)
		}
		return err
	}
	defer done()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
	}
	return err
}

// MaxKeyFile bounds a key file read.
const MaxKeyFile = 64 << 10

func readPEM(p, want string) (*pem.Block, error) {
	data, err := resolve.ReadFileMax(p, MaxKeyFile)
	if err != nil {
		return nil, err
	}
	b, _ := pem.Decode(data)
	if b == nil || b.Type != want {
		return nil, fmt.Errorf("%s holds no %q PEM block", p, want)
	}
	return b, nil
}

// LoadPrivate reads a PKCS#8 private key (ed25519 or ECDSA P-256).
func LoadPrivate(p string) (crypto.Signer, error) {
	b, err := readPEM(p, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	switch k := k.(type) {
	case ed25519.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, fmt.Errorf("%s: an ECDSA key on %s; attest signs with P-256", p, k.Curve.Params().Name)
		}
		return k, nil
	}
	return nil, fmt.Errorf("%s: a %T; attest signs with ed25519 or ECDSA P-256", p, k)
}

// LoadPublic reads an SPKI public key.
func LoadPublic(p string) (crypto.PublicKey, error) {
	b, err := readPEM(p, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	switch k.(type) {
	case ed25519.PublicKey, *ecdsa.PublicKey:
		return k, nil
	}
	return nil, fmt.Errorf("%s: a %T; attest verifies ed25519 or ECDSA P-256", p, k)
}

// Main is 'attest keygen [--algorithm A] --out NAME'.
func Main(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	alg := fs.String("algorithm", Ed25519, "ed25519 or ecdsa-p256")
	out := fs.String("out", "", "base name of the key files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() != 0 {
		return errors.New("--out NAME is required: the key pair is written to NAME.pem and NAME.pub.pem")
	}
	k, err := Generate(*alg)
	if err != nil {
		return err
	}
	id, err := Write(*out, k)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s.pem (private, 0600) and %s.pub.pem\nkeyid %s\n", *out, *out, id)
	return nil
}
