package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"path/filepath"
	"time"

	vsa "github.com/in-toto/attestation/go/predicates/vsa/v1"
	v1 "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// VSAPredicateType is SLSA's Verification Summary v1.
const VSAPredicateType = "https://slsa.dev/verification_summary/v1"

// VerifierID names attest as the verifier in a summary: its repository,
// where the verifier is documented.
const VerifierID = "https://github.com/metahub-ai/attest"

// Verified levels a passing summary states: attest's own properties, as
// the VSA allows beside SLSA's tracks, each only when that answer was ok.
const (
	LevelSignature = "ATTEST_SIGNATURE_VERIFIED"
	LevelScore     = "ATTEST_SCORE_RECOMPUTED"
	LevelArtifact  = "ATTEST_ARTIFACT_MATCHED"
	LevelLog       = "ATTEST_TRANSPARENCY_LOGGED"
	LevelPolicy    = "ATTEST_POLICY_MET"
)

// verifiedLevels lists what a passed verification vouches for; a failed
// one vouches for no level.
func verifiedLevels(r *Result) []string {
	if r.Failed {
		return []string{}
	}
	ok := map[string]bool{}
	for _, a := range r.Answers {
		ok[a.Name] = a.Status == OK
	}
	levels := []string{}
	for _, l := range []struct{ answer, level string }{
		{"signature", LevelSignature}, {"score", LevelScore}, {"results", LevelArtifact},
		{"transparency log", LevelLog}, {"policy", LevelPolicy},
	} {
		if ok[l.answer] {
			levels = append(levels, l.level)
		}
	}
	return levels
}

// Summary signs a SLSA Verification Summary of a verification against a
// policy: same subject as the report's statement, PASSED or FAILED, the
// policy by digest, and the report statement by the digest of its
// payload, so admission tooling that reads VSAs can gate on it.
// sign makes the Sigstore bundle (attest/sign's BundleStatement, which the
// lean verifier does not link).
func Summary(ctx context.Context, r *Result, policyURI string, policyFile []byte, bundleURI string, sign StatementSigner, now time.Time) ([]byte, error) {
	if r.subject == nil {
		return nil, errors.New("no signed statement to summarise")
	}
	result := "PASSED"
	if r.Failed {
		result = "FAILED"
	}
	psum := sha256.Sum256(policyFile)
	pred := &vsa.VerificationSummary{
		Verifier:           &vsa.VerificationSummary_Verifier{Id: VerifierID},
		TimeVerified:       timestamppb.New(now.UTC()),
		ResourceUri:        resourceURI(r),
		Policy:             &vsa.VerificationSummary_Policy{Uri: policyURI, Digest: map[string]string{"sha256": hex.EncodeToString(psum[:])}},
		InputAttestations:  []*vsa.VerificationSummary_InputAttestation{{Uri: bundleURI, Digest: map[string]string{"sha256": r.payloadSHA256}}},
		VerificationResult: result,
		VerifiedLevels:     verifiedLevels(r),
		SlsaVersion:        "1.0",
	}
	raw, err := protojson.Marshal(pred)
	if err != nil {
		return nil, err
	}
	ps := &structpb.Struct{}
	if err := protojson.Unmarshal(raw, ps); err != nil {
		return nil, err
	}
	st := &v1.Statement{Type: v1.StatementTypeUri, Subject: []*v1.ResourceDescriptor{r.subject}, PredicateType: VSAPredicateType, Predicate: ps}
	if err := st.Validate(); err != nil {
		return nil, err
	}
	return sign(ctx, st)
}

// StatementSigner signs an in-toto Statement as a Sigstore bundle.
type StatementSigner func(context.Context, *v1.Statement) ([]byte, error)

// resourceURI is where the verified artifact comes from: its source's URI
// when that is an absolute URI (a git repository, a package), else the
// statement's subject name.
func resourceURI(r *Result) string {
	if u, err := url.Parse(r.sourceURI); err == nil && u.IsAbs() {
		return r.sourceURI
	}
	return r.subject.Name
}

// FileURI turns a local path into an absolute file: URI, so a summary's
// policy and input attestation name files that resolve where it was made.
func FileURI(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
