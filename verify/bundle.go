package verify

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/policy"
)

// BundleMediaType is the Sigstore bundle version attest writes and the
// lean verifier reads; older versions go to the Sigstore verifier.
const BundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// ErrNeedsSigstore says a bundle (a certificate, a log entry, a signed
// timestamp) or an option (a trusted root, an identity, a summary to sign)
// needs the full Sigstore verifier, which the lean verifier does not link.
var ErrNeedsSigstore = errors.New("needs the Sigstore verifier")

// Signed is what a signature check found.
type Signed struct {
	// Signature is the signature answer; Log the transparency-log answer,
	// nil when the bundle carries no log entry.
	Signature Answer
	Log       *Answer
	// At is the signing time a timestamp authority or a log vouched for;
	// zero when nothing did. By says how it was vouched for.
	At time.Time
	By string
}

// Sigstore checks a bundle's signature with sigstore-go: keys, keyless
// certificates against a trusted root, log entries and timestamps. The
// attest-net companion supplies it; without it only key-signed bundles
// without log entries are checked (with go-securesystemslib's DSSE
// verifier), everything else is ErrNeedsSigstore.
type Sigstore func(ctx context.Context, bundleJSON []byte, opts Options) Signed

// parseBundle reads a Sigstore bundle with the protobuf-specs types.
func parseBundle(input []byte) (*protobundle.Bundle, error) {
	var b protobundle.Bundle
	if err := (protojson.UnmarshalOptions{}).Unmarshal(input, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// needsSigstore says why the lean verifier cannot check a bundle, or "".
func needsSigstore(b *protobundle.Bundle, opts Options) string {
	vm := b.GetVerificationMaterial()
	switch {
	case b.GetMediaType() != BundleMediaType:
		return "bundle version " + b.GetMediaType()
	case vm.GetCertificate() != nil || vm.GetX509CertificateChain() != nil:
		return "a certificate (keyless signature)"
	case len(vm.GetTlogEntries()) > 0:
		return "a transparency log entry"
	case len(vm.GetTimestampVerificationData().GetRfc3161Timestamps()) > 0:
		return "a signed timestamp"
	case len(opts.TrustedRoot) > 0:
		return "a trusted root"
	case len(opts.Identities) > 0:
		return "a keyless identity"
	}
	return ""
}

// NeedsSigstore says whether input, as Verify would read it, needs the
// Sigstore verifier: a bundle with a certificate, a log entry or a signed
// timestamp, or options naming a trusted root or an identity.
func NeedsSigstore(input []byte, opts Options) bool {
	return readInput(input).needsSigstore(opts)
}

func (in *input) needsSigstore(opts Options) bool {
	return in.isBundle && in.err == nil && needsSigstore(in.bundle, opts) != ""
}

// input is a bundle or a report read once: a 100 KB bundle was scanned
// three times and parsed twice on its way through Main and Verify.
type input struct {
	data     []byte
	tooLarge bool
	json     bool
	isBundle bool
	bundle   *protobundle.Bundle
	err      error // parsing the bundle
}

func readInput(data []byte) *input {
	in := &input{data: data}
	if len(data) > MaxInput {
		in.tooLarge = true
		return in
	}
	var probe struct {
		MediaType string `json:"mediaType"`
	}
	err := json.Unmarshal(data, &probe)
	var te *json.UnmarshalTypeError
	in.json = err == nil || errors.As(err, &te) // valid JSON, of another shape
	in.isBundle = err == nil && strings.HasPrefix(probe.MediaType, "application/vnd.dev.sigstore.bundle")
	if in.isBundle {
		in.bundle, in.err = parseBundle(data)
	}
	return in
}

// signatureRequired is true when an unchecked signature fails.
func signatureRequired(opts Options) bool {
	p := opts.Policy
	return opts.RequireSignature || p != nil && (len(p.TrustedSigners) > 0 || len(p.TrustedIdentities) > 0)
}

// Unchecked is the signature answer when nothing could check it: a
// warning, or a failure when a signature is required.
func Unchecked(opts Options, format string, a ...any) Answer {
	status := Warn
	if signatureRequired(opts) {
		status = Fail
	}
	return Answer{"signature", status, fmt.Sprintf(format, a...)}
}

// checkKeySigned checks a key-signed bundle with no log entry and no
// timestamp: its one DSSE signature against each trusted key, through
// go-securesystemslib's envelope verifier.
func checkKeySigned(ctx context.Context, b *protobundle.Bundle, opts Options) Signed {
	hint := b.GetVerificationMaterial().GetPublicKey().GetHint()
	env := b.GetDsseEnvelope()
	if len(env.GetSignatures()) != 1 {
		return Signed{Signature: Answer{"signature", Fail, fmt.Sprintf("the envelope carries %d signatures; a bundle has one", len(env.GetSignatures()))}}
	}
	if len(opts.Keys) == 0 {
		if signatureRequired(opts) {
			return Signed{Signature: Unchecked(opts, "no key to check it with (--key), and a signature is required")}
		}
		return Signed{Signature: Unchecked(opts, "not checked: no key given (the bundle names keyid %s); a key inside a bundle is never trusted by itself", hint)}
	}
	e := &dsse.Envelope{
		PayloadType: env.GetPayloadType(),
		Payload:     base64.StdEncoding.EncodeToString(env.GetPayload()),
		Signatures:  []dsse.Signature{{KeyID: env.GetSignatures()[0].GetKeyid(), Sig: base64.StdEncoding.EncodeToString(env.GetSignatures()[0].GetSig())}},
	}
	_, ans := TryKeys(opts.Keys, hint, func(k crypto.PublicKey, id string) error {
		ev, err := dsse.NewEnvelopeVerifier(&paeVerifier{key: k, id: id})
		if err != nil {
			return err
		}
		_, err = ev.Verify(ctx, e)
		return err
	})
	return Signed{Signature: ans}
}

// TryKeys checks a signature with each trusted key in turn (try says
// whether it verifies with one): the id of the first that does and an ok
// answer, or a failed answer saying whether the bundle names a key that is
// not trusted or a trusted key that does not verify it.
func TryKeys(trusted []crypto.PublicKey, hint string, try func(k crypto.PublicKey, id string) error) (string, Answer) {
	var ids []string
	var lastErr error
	for _, k := range trusted {
		id, err := keys.ID(k)
		if err != nil {
			lastErr = err
			continue
		}
		ids = append(ids, id)
		if err := try(k, id); err != nil {
			lastErr = err
			continue
		}
		return id, Answer{"signature", OK, "signed by keyid " + id}
	}
	if !slices.Contains(ids, hint) {
		return "", Answer{"signature", Fail, fmt.Sprintf("signed by keyid %s, not by a trusted key (%s)", hint, strings.Join(ids, ", "))}
	}
	return "", Answer{"signature", Fail, fmt.Sprintf("the signature does not verify with keyid %s: %v", hint, lastErr)}
}

// paeVerifier checks a DSSE signature as attest makes it: pure ed25519
// over the PAE, ECDSA over its SHA-256.
type paeVerifier struct {
	key crypto.PublicKey
	id  string
}

func (v *paeVerifier) Verify(_ context.Context, pae, sig []byte) error {
	switch k := v.key.(type) {
	case ed25519.PublicKey:
		if ed25519.Verify(k, pae, sig) {
			return nil
		}
	case *ecdsa.PublicKey:
		d := sha256.Sum256(pae)
		if ecdsa.VerifyASN1(k, d[:], sig) {
			return nil
		}
	default:
		return fmt.Errorf("a %T key; attest verifies ed25519 and ECDSA P-256", v.key)
	}
	return errors.New("signature mismatch")
}

// KeyID is empty: inside a Sigstore bundle the signature names no keyid,
// and the verifier must not match on one.
func (v *paeVerifier) KeyID() (string, error)   { return "", nil }
func (v *paeVerifier) Public() crypto.PublicKey { return v.key }

// TrustedIdentityNames lists the expected identities for a reason.
func TrustedIdentityNames(ids []policy.Identity) string {
	var s []string
	for _, id := range ids {
		s = append(s, id.String())
	}
	return strings.Join(s, ", ")
}

// readStatement reads an in-toto Statement v1 from a DSSE payload: the
// header through the in-toto types (protojson for each subject, the
// library's Validate), the predicate kept as its exact bytes. Turning a
// 100 KB predicate into a protobuf Struct and back cost 4 ms; this reads
// it once. Duplicate and unknown top-level fields are refused, so no
// reader can see another statement than this one does.
func readStatement(payload []byte) (*v1.Statement, json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(payload))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("not a JSON object")
	}
	st := &v1.Statement{}
	var predicate json.RawMessage
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, nil, fmt.Errorf("field %q appears twice", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("field %q: %w", key, err)
		}
		switch key {
		case "_type":
			err = json.Unmarshal(raw, &st.Type)
		case "predicateType":
			err = json.Unmarshal(raw, &st.PredicateType)
		case "predicate":
			predicate = raw
		case "subject":
			var subjects []json.RawMessage
			if err = json.Unmarshal(raw, &subjects); err == nil {
				for _, s := range subjects {
					rd := &v1.ResourceDescriptor{}
					if err = protojson.Unmarshal(s, rd); err != nil {
						break
					}
					st.Subject = append(st.Subject, rd)
				}
			}
		default:
			err = errors.New("not a Statement v1 field")
		}
		if err != nil {
			return nil, nil, fmt.Errorf("field %q: %w", key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if dec.More() || dec.InputOffset() != int64(len(bytes.TrimRight(payload, " \t\r\n"))) {
		return nil, nil, errors.New("trailing data after the statement")
	}
	if len(predicate) > 0 && predicate[0] == '{' {
		st.Predicate = &structpb.Struct{}
	}
	if err := st.Validate(); err != nil {
		return nil, nil, err
	}
	return st, predicate, nil
}
