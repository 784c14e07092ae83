// Package attest owns the report: its Go types and JSON Schema (the in-toto
// predicate), and the evaluation pipeline that produces it (resolve, run
// the suite's checks, apply the policy, score). It records the verdict the
// policy package decides; it never decides one itself.
package attest
