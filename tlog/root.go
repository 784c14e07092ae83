package tlog

import (
	"crypto"
	"encoding/hex"
	"fmt"
	"net/url"
	"time"

	"github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/sigstore-go/pkg/root"
)

// Transparency is a log as a trusted root names it: its URL (whose host
// is the origin of its checkpoints), its checkpoint key and the log id
// derived from both.
func Transparency(baseURL, origin string, pub crypto.PublicKey, since time.Time) (*root.TransparencyLog, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("log URL %q: not an absolute URL", baseURL)
	}
	if u.Hostname() != origin {
		return nil, fmt.Errorf("log URL %s: verifiers take the checkpoint origin from its host %q, but the log signs checkpoints as %q (serve it with --origin %s, or name it by that host)", baseURL, u.Hostname(), origin, u.Hostname())
	}
	_, id, err := note.KeyHash(origin, pub)
	if err != nil {
		return nil, err
	}
	return &root.TransparencyLog{
		BaseURL: baseURL, ID: id, ValidityPeriodStart: since,
		HashFunc: crypto.SHA256, PublicKey: pub, SignatureHashFunc: crypto.SHA256,
	}, nil
}

// TrustedRoot is a trusted_root.json naming only this log, so sigstore-go
// and cosign can verify entries it issued for key-signed bundles.
func TrustedRoot(baseURL, origin string, pub crypto.PublicKey, since time.Time) ([]byte, error) {
	tl, err := Transparency(baseURL, origin, pub, since)
	if err != nil {
		return nil, err
	}
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01, nil, nil, nil, map[string]*root.TransparencyLog{hex.EncodeToString(tl.ID): tl})
	if err != nil {
		return nil, err
	}
	return tr.MarshalJSON()
}
