package verify

import (
	"context"
	"crypto"
	"testing"

	"github.com/metahub-ai/attest/attest/keys"
)

// BenchmarkVerify is the lean verifier's work on a signed report of the
// sample skill with its artifact (the whole-process figure is in
// scripts/bench-cli.sh).
func BenchmarkVerify(b *testing.B) {
	k, _ := keys.Generate(keys.Ed25519)
	t := &testing.T{}
	bundle := signed(t, readReport(t), k)
	opts := Options{Keys: []crypto.PublicKey{k.Public()}, Artifact: sample}
	b.ReportAllocs()
	for b.Loop() {
		if r := Verify(context.Background(), bundle, opts); r.Failed {
			b.Fatal(r.Answers)
		}
	}
}
