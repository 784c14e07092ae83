package verify

import (
	"bytes"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/policy"
)

// parseBundle reads a Sigstore bundle with sigstore-go, which also
// checks its shape for its version.
func parseBundle(input []byte) (*bundle.Bundle, error) {
	var b bundle.Bundle
	if err := b.UnmarshalJSON(input); err != nil {
		return nil, err
	}
	return &b, nil
}

// input is a bundle or a report read once: a 100 KB bundle was scanned
// three times and parsed twice on its way through Main and Verify.
type input struct {
	data     []byte
	tooLarge bool
	json     bool
	isBundle bool
	bundle   *bundle.Bundle
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

// hasSigner says whether opts trust anyone: a key, an identity, or a
// policy's signers.
func (opts Options) hasSigner() bool {
	p := opts.Policy
	return len(opts.Keys) > 0 || len(opts.Identities) > 0 || p != nil && (len(p.TrustedSigners) > 0 || len(p.TrustedIdentities) > 0)
}

// signatureRequired is true when an unchecked signature fails: always,
// unless the caller gave no signer and chose InsecureIgnoreSigner.
func signatureRequired(opts Options) bool {
	return opts.RequireSignature || !opts.InsecureIgnoreSigner || opts.hasSigner()
}

// noSigner is the signature answer when nobody is trusted.
const noSigner = "no trusted signer given: pass --key, --identity with --issuer, or a --policy naming trustedSigners or trustedIdentities (--insecure-ignore-signer checks the rest without one)"

// Unchecked is the signature answer when nothing could check it: a
// failure when a signature is required, else a warning.
func Unchecked(opts Options, format string, a ...any) Answer {
	status := Warn
	if signatureRequired(opts) {
		status = Fail
	}
	return Answer{"signature", status, fmt.Sprintf(format, a...)}
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
// it once. A key given twice at any depth (or twice but for case) and
// unknown top-level fields are refused, so no reader can see another
// statement than this one does.
func readStatement(payload []byte) (*v1.Statement, json.RawMessage, error) {
	if err := repeatedKey(payload); err != nil {
		return nil, nil, err
	}
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
