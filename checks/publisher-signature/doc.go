// Package publishersignature implements the publisher-signature check.
package publishersignature

// Doc is the check's documentation.
const Doc = `Looks for a publisher's signature shipped with the artifact: OpenSSF
model-signing files (model.sig, *.oms.sig, any *.sig whose JSON mediaType
is a Sigstore bundle) and *.sigstore.json bundles. The DSSE payload is
decoded without being trusted; for the model-signing predicate
(https://model_signing/signature/v1.0) each listed file digest is compared
with the inventory, and files outside the signature are counted (metrics
signed_files, unsigned_files).

It passes only when the bundle verifies offline against a trust root and
identity supplied by policy and covers every evaluated file. This build has
no trust-root policy yet, so a signature found is at most a warning
("unverified"), as are mismatched digests and unsigned extra files.
Neutral when no signature ships. Informational: weight 0.

Why: a signature made after the last change, over every file, lets a
consumer tie the files they install to a publisher.`

// Remediation says how to fix a finding.
const Remediation = `Sign the artifact directory with OpenSSF model signing after the last
change, covering every file.`
