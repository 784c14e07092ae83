// Package sign turns a report into a signed in-toto attestation: an
// in-toto Statement v1 whose subject is the artifact and whose predicate is
// the report, in a DSSE envelope signed through go-securesystemslib, wrapped
// as a Sigstore bundle v0.3 by sigstore-go.
package sign

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/attest/keys"
)

// PredicateType names the report as an in-toto predicate.
const PredicateType = attest.PredicateType

// PayloadType is the DSSE payload type of an in-toto Statement.
const PayloadType = attest.PayloadType

// MaxReportBytes bounds a report read for signing.
const MaxReportBytes = 64 << 20

// Statement builds the in-toto Statement of a report: subject
// "<kind>:<name>" with the tree's sha256 only (in-toto matches a subject
// on any one listed digest), the report as predicate.
func Statement(report []byte) (*v1.Statement, error) {
	if len(report) > MaxReportBytes {
		return nil, fmt.Errorf("the report is over %d bytes", MaxReportBytes)
	}
	var head struct {
		Subject struct {
			Kind, Name string
			Digest     struct{ SHA256 string }
		}
	}
	if err := json.Unmarshal(report, &head); err != nil {
		return nil, fmt.Errorf("not a report: %w", err)
	}
	s := head.Subject
	if s.Kind == "" || s.Name == "" || len(s.Digest.SHA256) != 64 {
		return nil, errors.New("not a report: subject.kind, subject.name and subject.digest.sha256 are required")
	}
	pred := &structpb.Struct{}
	if err := protojson.Unmarshal(report, pred); err != nil {
		return nil, fmt.Errorf("the report is not a JSON object: %w", err)
	}
	st := &v1.Statement{
		Type:          v1.StatementTypeUri,
		Subject:       []*v1.ResourceDescriptor{{Name: s.Kind + ":" + s.Name, Digest: map[string]string{"sha256": s.Digest.SHA256}}},
		PredicateType: PredicateType,
		Predicate:     pred,
	}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	return st, nil
}

// signer signs DSSE pre-authentication encodings: pure ed25519 over the
// PAE itself, ECDSA P-256 over its SHA-256.
type signer struct {
	key crypto.Signer
	id  string
}

func (s *signer) Sign(_ context.Context, data []byte) ([]byte, error) {
	if k, ok := s.key.(ed25519.PrivateKey); ok {
		return ed25519.Sign(k, data), nil
	}
	d := sha256.Sum256(data)
	return s.key.Sign(rand.Reader, d[:], crypto.SHA256)
}

func (s *signer) KeyID() (string, error) { return s.id, nil }

// keypair hands sigstore-go the signature go-securesystemslib made, after
// checking that it is asked to sign that same PAE.
type keypair struct {
	key crypto.Signer
	id  string
	pae []byte
	sig []byte
	pop bool
}

func (k *keypair) ed() bool { _, ok := k.key.(ed25519.PrivateKey); return ok }

func (k *keypair) GetHashAlgorithm() protocommon.HashAlgorithm {
	if k.ed() {
		return protocommon.HashAlgorithm_SHA2_512
	}
	return protocommon.HashAlgorithm_SHA2_256
}

func (k *keypair) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	if k.ed() {
		return protocommon.PublicKeyDetails_PKIX_ED25519
	}
	return protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
}

func (k *keypair) GetHint() []byte { return []byte(k.id) }

func (k *keypair) GetKeyAlgorithm() string {
	if k.ed() {
		return "ED25519"
	}
	return "ECDSA"
}

func (k *keypair) GetPublicKey() crypto.PublicKey { return k.key.Public() }

func (k *keypair) GetPublicKeyPem() (string, error) {
	b, err := cryptoutils.MarshalPublicKeyToPEM(k.key.Public())
	return string(b), err
}

func (k *keypair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	d := sha256.Sum256(data)
	switch {
	case bytes.Equal(data, k.pae) && k.ed():
		return k.sig, data, nil
	case bytes.Equal(data, k.pae):
		return k.sig, d[:], nil
	case k.pop && !k.ed():
		// The certificate authority's proof of possession, over the
		// token's subject.
		s, err := k.key.Sign(rand.Reader, d[:], crypto.SHA256)
		return s, d[:], err
	}
	return nil, nil, errors.New("asked to sign something other than the envelope's PAE")
}

// Bundle signs a report: the Statement in a DSSE envelope, as a Sigstore
// bundle v0.3 in JSON. The bundle's verification material names the key
// by its id (the hint); the DSSE signature's keyid stays empty, as
// Sigstore verifiers require.
func Bundle(ctx context.Context, report []byte, key crypto.Signer) ([]byte, error) {
	switch key.(type) {
	case ed25519.PrivateKey, *ecdsa.PrivateKey:
	default:
		return nil, fmt.Errorf("a %T key; attest signs with ed25519 or ECDSA P-256", key)
	}
	st, err := Statement(report)
	if err != nil {
		return nil, err
	}
	return BundleStatement(ctx, st, key)
}

// BundleStatement signs a Statement as it is. Bundle builds the statement
// from a report; tests use this to sign statements altered by a key
// holder.
func BundleStatement(ctx context.Context, st *v1.Statement, key crypto.Signer) ([]byte, error) {
	return signStatement(ctx, st, key, sign.BundleOptions{}, false)
}

// signStatement makes the DSSE envelope with go-securesystemslib and has
// sigstore-go wrap it, with whatever certificate, timestamps and log
// entries opts ask for. pop lets the keypair also sign a proof of
// possession for the certificate authority (an ephemeral key only).
func signStatement(ctx context.Context, st *v1.Statement, key crypto.Signer, opts sign.BundleOptions, pop bool) ([]byte, error) {
	payload, err := protojson.Marshal(st)
	if err != nil {
		return nil, err
	}
	return signPayload(ctx, payload, key, opts, pop)
}

// BundlePayload signs statement bytes exactly as given, parsed by
// nothing: tests use it to sign what a key holder writes by hand
// (repeated keys, anything protojson would never write).
func BundlePayload(ctx context.Context, payload []byte, key crypto.Signer) ([]byte, error) {
	return signPayload(ctx, payload, key, sign.BundleOptions{}, false)
}

func signPayload(ctx context.Context, payload []byte, key crypto.Signer, opts sign.BundleOptions, pop bool) ([]byte, error) {
	switch key.(type) {
	case ed25519.PrivateKey, *ecdsa.PrivateKey:
	default:
		return nil, fmt.Errorf("a %T key; attest signs with ed25519 or ECDSA P-256", key)
	}
	id, err := keys.ID(key.Public())
	if err != nil {
		return nil, err
	}
	es, err := dsse.NewEnvelopeSigner(&dsseSigner{signer{key, id}})
	if err != nil {
		return nil, err
	}
	env, err := es.SignPayload(ctx, PayloadType, payload)
	if err != nil {
		return nil, err
	}
	if len(env.Signatures) != 1 {
		return nil, errors.New("the envelope has no single signature")
	}
	sig, err := env.DecodeB64Payload()
	if err != nil || !bytes.Equal(sig, payload) {
		return nil, errors.New("the envelope does not carry the statement")
	}
	rawSig, err := decodeB64(env.Signatures[0].Sig)
	if err != nil {
		return nil, err
	}
	kp := &keypair{key: key, id: id, pae: dsse.PAE(PayloadType, payload), sig: rawSig, pop: pop}
	if pop {
		// A certificate names the signer; the hint would only repeat a
		// throwaway key's id.
		kp.id = ""
	}
	opts.Context = ctx
	b, err := sign.Bundle(&sign.DSSEData{Data: payload, PayloadType: PayloadType}, kp, opts)
	if err != nil {
		return nil, err
	}
	return protojson.Marshal(b)
}

// dsseSigner adapts signer to go-securesystemslib's SignerVerifier; the
// verify side is sigstore-go's job.
type dsseSigner struct{ signer }

func (d *dsseSigner) Verify(context.Context, []byte, []byte) error {
	return errors.New("not a verifier")
}

func (d *dsseSigner) Public() crypto.PublicKey { return d.key.Public() }

func decodeB64(s string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(s)
}
