package verify

// Every signature, certificate, log entry and timestamp is checked here,
// by sigstore-go's verifier: publisher keys, keyless certificates against
// a trusted root and an expected identity, log entries and signed
// timestamps. The rest of the package checks the predicate.

import (
	"context"
	"crypto"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	v1 "github.com/in-toto/attestation/go/v1"
	rnote "github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	sgverify "github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"
	"golang.org/x/mod/sumdb/note"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
)

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

// KeySigner loads a private key as the signer of verification summaries.
func KeySigner(keyPath string) (StatementSigner, error) {
	k, err := keys.LoadPrivate(keyPath)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, st *v1.Statement) ([]byte, error) {
		return sign.BundleStatement(ctx, st, k)
	}, nil
}

func answer(status, format string, a ...any) Answer {
	return Answer{Name: "signature", Status: status, Reason: fmt.Sprintf(format, a...)}
}

// checkSignature verifies a bundle's signature, log entries and
// timestamps with sigstore-go against what opts trusts.
func checkSignature(b *bundle.Bundle, opts Options) Signed {
	tr := opts.trustedRoot
	if tr == nil && len(opts.TrustedRoot) > 0 {
		var err error
		if tr, err = root.NewTrustedRootFromJSON(opts.TrustedRoot); err != nil {
			return Signed{Signature: answer(Fail, "the trusted root is unreadable: %v", err)}
		}
	}
	vc, err := b.VerificationContent()
	if err != nil {
		return Signed{Signature: answer(Fail, "the bundle's verification material: %v", err)}
	}
	entries, _ := b.TlogEntries()
	logged := len(entries) > 0 && tr != nil && len(tr.RekorLogs()) > 0
	run := func(logged bool) Signed {
		if vc.Certificate() != nil {
			return keyless(b, tr, logged, opts)
		}
		return keyed(b, vc, tr, logged, opts)
	}
	out := run(logged)
	if logged && out.Signature.Status == Fail {
		// Tell a bad log entry from a bad signature: if the signature holds
		// without the log, only the log answer fails.
		if alt := run(false); alt.Signature.Status != Fail {
			alt.Log = &Answer{Name: "transparency log", Status: Fail, Reason: "the log entry does not verify: " + checkpointDiagnosis(b, tr)}
			out = alt
		}
	}
	if len(entries) > 0 && out.Log == nil {
		log := Answer{Name: "transparency log", Status: Warn, Reason: "the bundle has a log entry, but no trusted root names a log (--trusted-root): not checked"}
		if out.Signature.Status == Fail && logged {
			log = Answer{Name: "transparency log", Status: Fail, Reason: "not checked: the signature check failed (above)"}
		}
		out.Log = &log
	}
	return out
}

// checkpointDiagnosis says why a log entry did not verify against the
// trusted root: no log of the checkpoint's origin, or a checkpoint not
// signed by the key the trusted root names for that origin.
func checkpointDiagnosis(b *bundle.Bundle, tr *root.TrustedRoot) string {
	for _, e := range b.GetVerificationMaterial().GetTlogEntries() {
		env := e.GetInclusionProof().GetCheckpoint().GetEnvelope()
		origin, _, _ := strings.Cut(env, "\n")
		if origin == "" {
			continue
		}
		var named []string
		for _, tl := range tr.RekorLogs() {
			u, err := url.Parse(tl.BaseURL)
			if err != nil || u.Hostname() != origin {
				continue
			}
			named = append(named, tl.BaseURL)
			v, err := signature.LoadVerifier(tl.PublicKey, crypto.SHA256)
			if err != nil {
				continue
			}
			nv, err := rnote.NewNoteVerifier(origin, v)
			if err != nil {
				continue
			}
			if _, err := note.Open([]byte(env), note.VerifierList(nv)); err == nil {
				return fmt.Sprintf("its checkpoint is signed by the key the trusted root names for %s, but its inclusion proof or entry does not hold", tl.BaseURL)
			}
		}
		if len(named) > 0 {
			return fmt.Sprintf("the checkpoint signature of log %q does not verify with the key the trusted root names for it (%s)", origin, strings.Join(named, ", "))
		}
		return fmt.Sprintf("the trusted root names no log %q (the checkpoint's origin)", origin)
	}
	return "it carries no checkpoint"
}

// options are the verifier options for a bundle: its log entries checked
// whenever the trusted root names a log, certificate transparency when it
// names a CT log.
func options(b *bundle.Bundle, tr *root.TrustedRoot, logged, needTime bool) []sgverify.VerifierOption {
	var o []sgverify.VerifierOption
	if logged {
		o = append(o, sgverify.WithTransparencyLog(1))
	}
	ts, _ := b.Timestamps()
	switch {
	case needTime:
		o = append(o, sgverify.WithObserverTimestamps(1))
	case len(ts) > 0 && tr != nil:
		o = append(o, sgverify.WithSignedTimestamps(len(ts)))
	default:
		o = append(o, sgverify.WithNoObserverTimestamps())
	}
	if tr != nil && len(tr.CTLogs()) > 0 && needTime {
		o = append(o, sgverify.WithSignedCertificateTimestamps(1))
	}
	return o
}

// finish fills in the log answer and the vouched-for time from a verified
// result.
func finish(out *Signed, b *bundle.Bundle, tr *root.TrustedRoot, logged bool, res *sgverify.VerificationResult) {
	for _, t := range res.VerifiedTimestamps {
		if out.At.IsZero() || t.Timestamp.Before(out.At) {
			out.At, out.By = t.Timestamp, timestampSource(t)
		}
	}
	if !logged {
		return
	}
	entries, _ := b.TlogEntries()
	var where []string
	for _, e := range entries {
		name := hex.EncodeToString([]byte(e.LogKeyID()))
		if tl, ok := tr.RekorLogs()[name]; ok && tl.BaseURL != "" {
			name = tl.BaseURL
		}
		where = append(where, fmt.Sprintf("entry %d of %s", e.LogIndex(), name))
	}
	out.Log = &Answer{Name: "transparency log", Status: OK, Reason: "included, with a verified inclusion proof and signed checkpoint: " + strings.Join(where, ", ")}
}

func timestampSource(t sgverify.TimestampVerificationResult) string {
	switch t.Type {
	case "TimestampAuthority":
		return "timestamp authority " + t.URI
	case "Tlog":
		return "log " + t.URI
	}
	return t.Type + " " + t.URI
}

// keyed checks a key-signed bundle against each trusted key.
func keyed(b *bundle.Bundle, vc sgverify.VerificationContent, tr *root.TrustedRoot, logged bool, opts Options) Signed {
	hint := ""
	if pk := vc.PublicKey(); pk != nil {
		hint = pk.Hint()
	}
	if len(opts.Keys) == 0 {
		return Signed{Signature: Unchecked(opts, "not checked: no key given (the bundle names keyid %s); a key inside a bundle is never trusted by itself", hint)}
	}
	var res *sgverify.VerificationResult
	_, ans := TryKeys(opts.Keys, hint, func(k crypto.PublicKey, id string) error {
		var err error
		res, err = verifyWithKey(b, k, id, tr, logged)
		return err
	})
	out := Signed{Signature: ans}
	if ans.Status == OK {
		finish(&out, b, tr, logged, res)
	}
	return out
}

func verifyWithKey(b *bundle.Bundle, key crypto.PublicKey, id string, tr *root.TrustedRoot, logged bool) (*sgverify.VerificationResult, error) {
	v, err := signature.LoadDefaultVerifier(key)
	if err != nil {
		return nil, err
	}
	var tm root.TrustedMaterial = root.NewTrustedPublicKeyMaterialFromMapping(map[string]*root.ExpiringKey{id: root.NewExpiringKey(v, time.Time{}, time.Time{})})
	if tr != nil {
		tm = root.TrustedMaterialCollection{tr, tm}
	}
	ver, err := sgverify.NewVerifier(tm, options(b, tr, logged, false)...)
	if err != nil {
		return nil, err
	}
	return ver.Verify(b, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithKey()))
}

// keyless checks a certificate-signed bundle against the trusted root,
// then its certificate against the expected identities. Without an
// expected identity a valid signature is a warning: anyone can get a
// certificate.
func keyless(b *bundle.Bundle, tr *root.TrustedRoot, logged bool, opts Options) Signed {
	if tr == nil {
		return Signed{Signature: Unchecked(opts, "not checked: a keyless signature needs the trusted root of the Sigstore deployment that certified it (--trusted-root)")}
	}
	ver, err := sgverify.NewVerifier(tr, options(b, tr, logged, true)...)
	if err != nil {
		return Signed{Signature: answer(Fail, "%v", err)}
	}
	res, err := ver.Verify(b, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithoutIdentitiesUnsafe()))
	if err != nil {
		return Signed{Signature: answer(Fail, "the keyless signature does not verify against the trusted root: %v", err)}
	}
	c := res.Signature.Certificate
	who := fmt.Sprintf("%s (issuer %s)", c.SubjectAlternativeName, c.Issuer)
	out := Signed{}
	finish(&out, b, tr, logged, res)
	if len(opts.Identities) == 0 {
		out.Signature = Unchecked(opts, "a valid keyless signature by %s, but no identity was expected (--identity and --issuer, or the policy's trustedIdentities): anyone can get a certificate", who)
		return out
	}
	var want sgverify.CertificateIdentities
	for _, id := range opts.Identities {
		re := id.SubjectRegexp
		if re != "" {
			re = "^(?:" + re + ")$"
		}
		ci, err := sgverify.NewShortCertificateIdentity(id.Issuer, "", id.Subject, re)
		if err != nil {
			out.Signature = answer(Fail, "expected identity %s: %v", id, err)
			return out
		}
		want = append(want, ci)
	}
	if _, err := want.Verify(*c); err != nil {
		out.Signature = answer(Fail, "signed by %s, not by a trusted identity (%s)", who, TrustedIdentityNames(opts.Identities))
		return out
	}
	out.Signature = answer(OK, "keyless, signed by %s", who)
	return out
}
