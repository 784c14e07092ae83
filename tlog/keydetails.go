package tlog

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"fmt"

	pb "github.com/sigstore/rekor-tiles/v2/pkg/generated/protobuf"
	"github.com/sigstore/sigstore/pkg/signature"
)

// checkKeyDetails refuses a hashedrekord request whose key details do not
// describe its key, before rekor-tiles reads it: the library takes the
// hash from the details and checks the key only against the algorithms
// the log permits, so an RSA key labelled ECDSA P-256 was logged under
// the wrong details, and pure ed25519 (no hash: it signs the message, and
// a hashedrekord carries only the digest) made it panic.
func checkKeyDetails(hr *pb.HashedRekordRequestV002) error {
	v := hr.GetSignature().GetVerifier()
	if v == nil || v.GetPublicKey() == nil && v.GetX509Certificate() == nil {
		return nil // rekor-tiles names what is missing
	}
	details := v.GetKeyDetails()
	alg, err := signature.GetAlgorithmDetails(details)
	if err != nil {
		return fmt.Errorf("key details %s: %w", details, err)
	}
	if alg.GetHashType() == crypto.Hash(0) {
		return fmt.Errorf("key details %s sign a whole message, and a hashedrekord carries only its digest: sign with PKIX_ED25519_PH", details)
	}
	var pub crypto.PublicKey
	switch {
	case v.GetPublicKey() != nil:
		if pub, err = x509.ParsePKIXPublicKey(v.GetPublicKey().GetRawBytes()); err != nil {
			return fmt.Errorf("the public key: %w", err)
		}
	case v.GetX509Certificate() != nil:
		c, err := x509.ParseCertificate(v.GetX509Certificate().GetRawBytes())
		if err != nil {
			return fmt.Errorf("the certificate: %w", err)
		}
		pub = c.PublicKey
	}
	is := ""
	switch k := pub.(type) {
	case *rsa.PublicKey:
		if size, err := alg.GetRSAKeySize(); err != nil || k.Size()*8 != int(size) {
			is = fmt.Sprintf("an RSA key of %d bits", k.Size()*8)
		}
	case *ecdsa.PublicKey:
		if curve, err := alg.GetECDSACurve(); err != nil || *curve != k.Curve {
			is = "an ECDSA key on " + k.Curve.Params().Name
		}
	case ed25519.PublicKey:
		if alg.GetKeyType() != signature.ED25519 {
			is = "an ed25519 key"
		}
	default:
		is = fmt.Sprintf("a %T", pub)
	}
	if is != "" {
		return fmt.Errorf("key details %s do not describe the key, %s", details, is)
	}
	return nil
}
