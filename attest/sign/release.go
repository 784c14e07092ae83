package sign

import (
	"bufio"
	"bytes"
	"context"
	"crypto"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	releasepb "github.com/in-toto/attestation/go/predicates/release/v0"
	v1 "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// ReleasePredicateType is in-toto's release predicate: these files are
// the release named by the purl.
const ReleasePredicateType = "https://in-toto.io/attestation/release/v0.1"

// MaxChecksumsBytes bounds a checksums file.
const MaxChecksumsBytes = 1 << 20

// ReleaseStatement is the in-toto release attestation of a checksums
// file as goreleaser writes it ("<sha256 hex>  <name>" a line): one subject
// per file, named by its base name, so 'cosign verify-blob-attestation'
// and attest verify any one file of the release against it.
func ReleaseStatement(checksums []byte, purl string) (*v1.Statement, error) {
	st := &v1.Statement{Type: v1.StatementTypeUri, PredicateType: ReleasePredicateType}
	sc := bufio.NewScanner(bytes.NewReader(checksums))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		sum, name, ok := strings.Cut(line, "  ")
		name = strings.TrimPrefix(strings.TrimSpace(name), "*")
		if b, err := hex.DecodeString(sum); !ok || err != nil || len(b) != 32 || name == "" || name == "." || name == ".." || path.Base(name) != name {
			return nil, fmt.Errorf("line %d is not '<sha256>  <file>': %q", n, line)
		}
		st.Subject = append(st.Subject, &v1.ResourceDescriptor{Name: name, Digest: map[string]string{"sha256": sum}})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(st.Subject) == 0 {
		return nil, fmt.Errorf("no files listed")
	}
	b, err := protojson.Marshal(&releasepb.Release{Purl: purl})
	if err != nil {
		return nil, err
	}
	st.Predicate = &structpb.Struct{}
	if err := protojson.Unmarshal(b, st.Predicate); err != nil {
		return nil, err
	}
	return st, st.Validate()
}

// ReleaseBundle signs the release attestation of a checksums file with a
// key, as a Sigstore bundle.
func ReleaseBundle(ctx context.Context, checksums []byte, purl string, key crypto.Signer) ([]byte, error) {
	st, err := ReleaseStatement(checksums, purl)
	if err != nil {
		return nil, fmt.Errorf("checksums: %w", err)
	}
	return BundleStatement(ctx, st, key)
}
