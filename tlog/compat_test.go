package tlog_test

import (
	"context"
	"crypto"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	sgverify "github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/attest/sign"
	"github.com/metahub-ai/attest/tlog"
	"github.com/metahub-ai/attest/verify"
)

// EnvRekorTiles names a built rekor-tiles POSIX server
// (github.com/sigstore/rekor-tiles/v2/cmd/rekor-server/posix at the
// pinned version); .ci/run builds it.
const EnvRekorTiles = "ATTEST_REKOR_TILES_SERVER"

// logged signs a report with --log against logURL and checks the bundle
// the way a verifier would, through attest's verifier and sigstore-go
// directly; it returns the answers.
func logged(t *testing.T, logURL string, logPub crypto.PublicKey) map[string]string {
	t.Helper()
	key, _ := keys.Generate(keys.ECDSAP256)
	b, err := sign.SignReport(context.Background(), report(t), sign.Signing{Key: key, Log: logURL})
	if err != nil {
		t.Fatalf("signing against %s: %v", logURL, err)
	}
	tr, err := tlog.TrustedRoot(logURL, "127.0.0.1", logPub, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range verify.Verify(context.Background(), b, verify.Options{Keys: []crypto.PublicKey{key.Public()}, TrustedRoot: tr}).Answers {
		got[a.Name] = a.Status
	}
	var pb bundle.Bundle
	if err := pb.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	trusted, _ := root.NewTrustedRootFromJSON(tr)
	id, _ := keys.ID(key.Public())
	v, _ := signature.LoadDefaultVerifier(key.Public())
	km := root.NewTrustedPublicKeyMaterialFromMapping(map[string]*root.ExpiringKey{id: root.NewExpiringKey(v, time.Time{}, time.Time{})})
	ver, _ := sgverify.NewVerifier(root.TrustedMaterialCollection{trusted, km}, sgverify.WithTransparencyLog(1), sgverify.WithNoObserverTimestamps())
	if _, err := ver.Verify(&pb, sgverify.NewPolicy(sgverify.WithoutArtifactUnsafe(), sgverify.WithKey())); err != nil {
		t.Errorf("sigstore-go refuses the bundle logged at %s: %v", logURL, err)
	}
	entries, _ := pb.TlogEntries()
	if len(entries) != 1 || entries[0].Body() == nil {
		t.Errorf("%s: %d log entries", logURL, len(entries))
	} else if kv := pb.GetVerificationMaterial().GetTlogEntries()[0].GetKindVersion(); kv.GetKind() != "hashedrekord" || kv.GetVersion() != "0.0.2" {
		t.Errorf("%s: entry kind %s %s", logURL, kv.GetKind(), kv.GetVersion())
	}
	return got
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestRekorTilesCompatibility runs the same client test against the real
// rekor-tiles POSIX server and against attest's log: both give bundles
// that verify the same way.
func TestRekorTilesCompatibility(t *testing.T) {
	bin := os.Getenv(EnvRekorTiles)
	if bin == "" && os.Getenv("CI") != "" {
		t.Fatal(EnvRekorTiles + " is not set in CI: .ci/run builds the rekor-tiles server for this test")
	}
	if bin == "" {
		t.Skip("SKIPPING: set " + EnvRekorTiles + " to a rekor-tiles POSIX server binary (.ci/run builds one)")
	}
	dir := t.TempDir()
	key, _ := keys.Generate(keys.ECDSAP256)
	if _, err := keys.Write(filepath.Join(dir, "log-key"), key); err != nil {
		t.Fatal(err)
	}
	httpPort := freePort(t)
	cmd := exec.Command(bin, "serve", "--storage-dir", filepath.Join(dir, "tiles"), "--hostname", "127.0.0.1",
		"--http-port", fmt.Sprint(httpPort), "--grpc-port", fmt.Sprint(freePort(t)), "--http-metrics-port", fmt.Sprint(freePort(t)),
		"--signer-filepath", filepath.Join(dir, "log-key.pem"), "--checkpoint-interval", "200ms")
	out, _ := os.Create(filepath.Join(dir, "server.log"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	rtURL := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	for i := 0; ; i++ {
		resp, err := http.Get(rtURL + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i > 100 {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t.Fatalf("rekor-tiles did not start: %v\n%s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	theirs := logged(t, rtURL, key.Public())
	ours, ourURL := startLog(t)
	mine := logged(t, ourURL, ours.PublicKey())
	if theirs["transparency log"] != verify.OK || theirs["signature"] != verify.OK {
		t.Errorf("rekor-tiles: %v", theirs)
	}
	for name, status := range theirs {
		if mine[name] != status {
			t.Errorf("%s: %s against rekor-tiles, %s against attest's log", name, status, mine[name])
		}
	}
}
