package publishersignature

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is publisher-signature.
var Check = &checks.Check{
	ID:          "publisher-signature",
	Version:     "1.0.0",
	Title:       "Publisher signature",
	Axis:        checks.Integrity,
	Weight:      0,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// ModelSigningPredicate is the OpenSSF model-signing predicate type.
const ModelSigningPredicate = "https://model_signing/signature/v1.0"

// bundle is the part of a Sigstore bundle read here; nothing in it is
// trusted.
type bundle struct {
	MediaType    string `json:"mediaType"`
	DSSEEnvelope *struct {
		Payload     string `json:"payload"`
		PayloadType string `json:"payloadType"`
	} `json:"dsseEnvelope"`
}

type statement struct {
	PredicateType string `json:"predicateType"`
	Predicate     struct {
		Resources []struct {
			Name      string `json:"name"`
			Algorithm string `json:"algorithm"`
			Digest    string `json:"digest"`
		} `json:"resources"`
		Serialization struct {
			IgnorePaths []string `json:"ignore_paths"`
		} `json:"serialization"`
	} `json:"predicate"`
}

func candidate(p string) bool {
	base := path.Base(p)
	return base == "model.sig" || strings.HasSuffix(base, ".sig") || strings.HasSuffix(base, ".sigstore.json") || strings.HasSuffix(base, ".sigstore")
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	inv := in.Subject.Inventory
	var found []string
	var warns []checks.Evidence
	var metrics []checks.Evidence
	for _, f := range inv.Files {
		if !candidate(f.Path) || !f.Scanned {
			continue
		}
		var b bundle
		if err := json.Unmarshal(f.Content, &b); err != nil || !strings.HasPrefix(b.MediaType, "application/vnd.dev.sigstore.bundle") {
			continue
		}
		found = append(found, f.Path)
		if b.DSSEEnvelope == nil {
			warns = append(warns, checks.At(f.Path, 0, 0, "signature bundle with no DSSE envelope; unverified"))
			continue
		}
		payload, err := base64.StdEncoding.DecodeString(b.DSSEEnvelope.Payload)
		var st statement
		if err != nil || json.Unmarshal(payload, &st) != nil {
			warns = append(warns, checks.At(f.Path, 0, 0, "DSSE payload is not a readable statement"))
			continue
		}
		if st.PredicateType != ModelSigningPredicate {
			warns = append(warns, checks.At(f.Path, 0, 0, fmt.Sprintf("signature over a %q statement; unverified", st.PredicateType)))
			continue
		}
		signed := map[string]string{}
		for _, r := range st.Predicate.Resources {
			if strings.EqualFold(r.Algorithm, "sha256") {
				signed[path.Clean(r.Name)] = strings.ToLower(r.Digest)
			}
		}
		unsigned, mismatched := 0, 0
		for _, g := range inv.Files {
			if g.Path == f.Path {
				continue
			}
			d, ok := signed[g.Path]
			switch {
			case !ok:
				unsigned++
			case d != hex.EncodeToString(g.SHA256[:]):
				mismatched++
				warns = append(warns, checks.At(g.Path, 0, 0, "changed since it was signed"))
			}
		}
		if len(st.Predicate.Serialization.IgnorePaths) > 0 {
			warns = append(warns, checks.At(f.Path, 0, 0, "the signature ignores paths that are evaluated files"))
		}
		if unsigned > 0 {
			warns = append(warns, checks.At(f.Path, 0, 0, fmt.Sprintf("%s not covered by the signature", checks.Plural(unsigned, "file"))))
		}
		metrics = append(metrics, checks.Metric("signed_files", float64(len(signed)), "files"), checks.Metric("unsigned_files", float64(unsigned), "files"))
		warns = append(warns, checks.At(f.Path, 0, 0, "signer unverified: no trust root and identity were supplied"))
	}
	if len(found) == 0 {
		return checks.NotApplicable("no publisher signature ships with the artifact"), nil
	}
	return checks.Warning(0.5, fmt.Sprintf("%s found, not verified", checks.Plural(len(found), "signature bundle")), append(warns, metrics...)...), nil
}
