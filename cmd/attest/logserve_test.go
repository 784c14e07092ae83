package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v1 "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/rekor-tiles/v2/pkg/client/write"
	pb "github.com/sigstore/rekor-tiles/v2/pkg/generated/protobuf"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera/client"
	"google.golang.org/protobuf/proto"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/cmd/attest/attesttest"
	"github.com/metahub-ai/attest/tlog"
)

var listening = regexp.MustCompile(`at (http://127\.0\.0\.1:\d+) `)

// logProcess runs attest log serve on dir as a real process and
// returns it with its URL.
func logProcess(t testing.TB, dir string, flags ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(attesttest.Binary(t), append([]string{"log", "serve", "--dir", dir, "--addr", "127.0.0.1:0"}, flags...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	m := listening.FindStringSubmatch(line)
	if err != nil || m == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the log did not start: %q %v", line, err)
	}
	return cmd, m[1]
}

// ack is an entry the log acknowledged: where it is and the checkpoint it
// was proved against.
type ack struct {
	index      int64
	leaf       []byte
	checkpoint string
}

// writer appends fresh signed hashedrekord entries through rekor-tiles'
// own client until ctx ends, recording every acknowledgement and how long
// each took.
type writer struct {
	key  *ecdsa.PrivateKey
	spki []byte
	c    write.Client
}

func newWriter(t testing.TB, logURL string) *writer {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	spki, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	c, err := write.NewWriter(logURL)
	if err != nil {
		t.Fatal(err)
	}
	return &writer{k, spki, c}
}

func (w *writer) add(ctx context.Context) (*ack, error) {
	msg := make([]byte, 32)
	rand.Read(msg)
	d := sha256.Sum256(msg)
	sig, err := ecdsa.SignASN1(rand.Reader, w.key, d[:])
	if err != nil {
		return nil, err
	}
	tle, err := w.c.Add(ctx, &pb.HashedRekordRequestV002{
		Digest: d[:],
		Signature: &pb.Signature{Content: sig, Verifier: &pb.Verifier{
			Verifier:   &pb.Verifier_PublicKey{PublicKey: &pb.PublicKey{RawBytes: w.spki}},
			KeyDetails: v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256,
		}},
	})
	if err != nil {
		return nil, err
	}
	return &ack{tle.GetLogIndex(), tle.GetCanonicalizedBody(), tle.GetInclusionProof().GetCheckpoint().GetEnvelope()}, nil
}

// checkLog proves, against the log's current checkpoint, that every
// acknowledged entry is in the tree at its index and that the tree is
// consistent with every checkpoint handed out.
func checkLog(t testing.TB, logURL string, dir string, acks []*ack) (size uint64) {
	t.Helper()
	ctx := context.Background()
	pub, err := keys.LoadPublic(filepath.Join(dir, logKeyName+".pub.pem"))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(logURL)
	f, _ := client.NewHTTPFetcher(u, http.DefaultClient)
	raw, err := f.ReadCheckpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := tlog.OpenCheckpoint(raw, "127.0.0.1", pub)
	if err != nil {
		t.Fatal(err)
	}
	pbld, err := client.NewProofBuilder(ctx, cp.Size, f.ReadTile)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, a := range acks {
		if seen[a.index] {
			t.Errorf("index %d acknowledged twice", a.index)
		}
		seen[a.index] = true
		hashes, err := pbld.InclusionProof(ctx, uint64(a.index))
		if err != nil {
			t.Fatalf("entry %d: %v", a.index, err)
		}
		if err := proof.VerifyInclusion(rfc6962.DefaultHasher, uint64(a.index), cp.Size, rfc6962.DefaultHasher.HashLeaf(a.leaf), hashes, cp.Hash); err != nil {
			t.Errorf("acknowledged entry %d is not in the tree of %d: %v", a.index, cp.Size, err)
		}
	}
	handed := map[string]bool{}
	for _, a := range acks {
		handed[a.checkpoint] = true
	}
	for env := range handed {
		old, err := tlog.OpenCheckpoint([]byte(env), "127.0.0.1", pub)
		if err != nil {
			t.Fatalf("a checkpoint handed out does not verify: %v", err)
		}
		if old.Size == cp.Size {
			if string(old.Hash) != string(cp.Hash) {
				t.Errorf("two roots for size %d", cp.Size)
			}
			continue
		}
		hashes, err := pbld.ConsistencyProof(ctx, old.Size, cp.Size)
		if err != nil {
			t.Fatal(err)
		}
		if err := proof.VerifyConsistency(rfc6962.DefaultHasher, old.Size, cp.Size, hashes, old.Hash, cp.Hash); err != nil {
			t.Errorf("the tree of %d is not consistent with the checkpoint of %d handed out before: %v", cp.Size, old.Size, err)
		}
	}
	return cp.Size
}

// TestLogCrash: writers append while the log is killed with SIGKILL at a
// random moment, 20 times over the same directory; afterwards every
// acknowledged entry is in the tree with a valid inclusion proof and the
// tree is consistent with every checkpoint handed out before a crash.
func TestLogCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPING: 20 kill -9 cycles of a log server")
	}
	dir := t.TempDir()
	var (
		mu   sync.Mutex
		acks []*ack
	)
	const cycles, writers = 20, 8
	for cycle := range cycles {
		cmd, logURL := logProcess(t, dir)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for range writers {
			w := newWriter(t, logURL)
			wg.Go(func() {
				for ctx.Err() == nil {
					a, err := w.add(ctx)
					if err != nil {
						continue
					}
					mu.Lock()
					acks = append(acks, a)
					mu.Unlock()
				}
			})
		}
		n, _ := rand.Int(rand.Reader, big.NewInt(300))
		time.Sleep(time.Duration(150+n.Int64()) * time.Millisecond)
		cmd.Process.Kill() // SIGKILL: no shutdown, no flush
		cmd.Wait()
		cancel()
		wg.Wait()
		mu.Lock()
		t.Logf("cycle %d: %d entries acknowledged so far", cycle, len(acks))
		mu.Unlock()
	}
	if len(acks) < cycles {
		t.Fatalf("only %d entries acknowledged in %d cycles; the writers did not write", len(acks), cycles)
	}
	cmd, logURL := logProcess(t, dir)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	size := checkLog(t, logURL, dir, acks)
	t.Logf("%d acknowledged entries all present in the tree of %d after %d kill -9 cycles", len(acks), size, cycles)
}

// TestLogDeduplicatesAndRefuses: an identical entry is answered 409 with
// its index; a bad signature, a DSSE request and an oversized body are
// refused before anything is appended.
func TestLogDeduplicatesAndRefuses(t *testing.T) {
	dir := t.TempDir()
	cmd, logURL := logProcess(t, dir)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	w := newWriter(t, logURL)
	d := sha256.Sum256([]byte("same"))
	sig, _ := ecdsa.SignASN1(rand.Reader, w.key, d[:])
	req := &pb.HashedRekordRequestV002{Digest: d[:], Signature: &pb.Signature{Content: sig, Verifier: &pb.Verifier{
		Verifier: &pb.Verifier_PublicKey{PublicKey: &pb.PublicKey{RawBytes: w.spki}}, KeyDetails: v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256}}}
	first, err := w.c.Add(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.c.Add(context.Background(), req); err == nil || !regexp.MustCompile(`409 .*index `+fmt.Sprint(first.GetLogIndex())).MatchString(err.Error()) {
		t.Errorf("duplicate: %v", err)
	}
	bad := proto.Clone(req).(*pb.HashedRekordRequestV002)
	bad.Digest = make([]byte, 32)
	if _, err := w.c.Add(context.Background(), bad); err == nil || !regexp.MustCompile(`400 .*invalid hashedrekord`).MatchString(err.Error()) {
		t.Errorf("bad signature: %v", err)
	}
	for name, body := range map[string]string{
		"dsse":      `{"dsseRequestV002": {}}`,
		"not json":  `{`,
		"oversized": `{"hashedRekordRequestV002": {"digest": "` + strings.Repeat("A", 5<<20) + `"}}`,
	} {
		resp, err := http.Post(logURL+tlog.EntriesPath, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("%s: %s", name, resp.Status)
		}
	}
	a, err := w.add(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a.index != first.GetLogIndex()+1 {
		t.Errorf("refused requests were appended: next index %d after %d", a.index, first.GetLogIndex())
	}
	for p, want := range map[string]int{"/checkpoint": 200, "/api/v2/checkpoint": 200, "/log-key.pem": 404, "/log.json": 404, "/tile/../../log-key.pem": 404, "/tile/%2e%2e/%2e%2e/log-key.pem": 404} {
		resp, err := http.Get(logURL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %s, want %d", p, resp.Status, want)
		}
	}
	checkLog(t, logURL, dir, []*ack{a})

	// SIGTERM: a clean stop, and the log resumes where it was.
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	cmd, logURL = logProcess(t, dir)
	w = newWriter(t, logURL)
	if b, err := w.add(context.Background()); err != nil || b.index != a.index+1 {
		t.Errorf("after a restart: %+v %v", b, err)
	}
}

// BenchmarkLogLoad: 16 writers, each with 64 requests in flight, append
// for the benchmark's duration through rekor-tiles' client; reports
// entries/s and the p50/p99 latency from request to an answer that
// carries the inclusion proof. Loopback only; it stops by itself.
func BenchmarkLogLoad(b *testing.B) {
	dir := b.TempDir()
	cmd, logURL := logProcess(b, dir, strings.Fields(os.Getenv("ATTEST_LOG_FLAGS"))...)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	const writers, inflight = 16, 64
	// rekor-tiles' client uses the default transport, which keeps two
	// idle connections per host: hundreds of requests in flight from one
	// process would reconnect for nearly every request.
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = writers * inflight
	// The load generator shares the machine with the log; its collector
	// should take as little of it as the log's does (gctune).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	duration := 5 * time.Second
	if b.N == 1 {
		duration = time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var (
		mu        sync.Mutex
		latencies []time.Duration
		acks      []*ack
		failures  int
	)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range writers {
		w := newWriter(b, logURL)
		for range inflight {
			wg.Go(func() {
				for ctx.Err() == nil {
					t0 := time.Now()
					a, err := w.add(ctx)
					el := time.Since(t0)
					mu.Lock()
					if err != nil {
						if !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
							failures++
						}
					} else {
						latencies = append(latencies, el)
						acks = append(acks, a)
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(latencies) == 0 {
		b.Fatal("no entry acknowledged")
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "entries/s")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(failures), "failures")
	checkLog(b, logURL, dir, acks)
}
