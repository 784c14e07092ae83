// Package tlog is attest's transparency log: a log that speaks the
// Sigstore log protocol (Rekor v2) on Tessera's POSIX storage, so that
// sigstore-go, cosign and rekor-tiles' clients write to it and verify its
// entries as they do Sigstore's own; and the client side that checks a
// log's checkpoints for consistency. The Merkle tree, tiles, proofs and
// signed notes are Tessera's, transparency-dev/merkle's and rekor-tiles';
// this package wires them to the Rekor v2 write API.
package tlog

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
	v1 "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	rekorpb "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	pb "github.com/sigstore/rekor-tiles/v2/pkg/generated/protobuf"
	"github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/rekor-tiles/v2/pkg/types/hashedrekord"
	"github.com/sigstore/sigstore/pkg/signature"
	logformat "github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/api"
	"github.com/transparency-dev/tessera/api/layout"
	"google.golang.org/protobuf/encoding/protojson"
	"k8s.io/klog/v2"
)

// EntriesPath is the Rekor v2 write endpoint.
const EntriesPath = "/api/v2/log/entries"

// Defaults of Options.
const (
	DefaultMaxRequestBytes    = 4 << 20
	DefaultCheckpointInterval = 100 * time.Millisecond
	DefaultBatchMaxAge        = 20 * time.Millisecond
	DefaultBatchMaxSize       = 1024
	// pollPeriod is how often a writer waiting for its entry re-reads the
	// published checkpoint (a local file).
	pollPeriod = 10 * time.Millisecond
)

// Options configure a log.
type Options struct {
	// Dir holds the log's tiles, entry bundles and checkpoint (the C2SP
	// tlog-tiles layout), served as they are for reading.
	Dir string
	// Origin names the log in its checkpoints; verifiers derive it from
	// the host of the log's URL in their trusted root, so it is that host.
	Origin string
	// Signer signs checkpoints (ECDSA P-256 or ed25519).
	Signer crypto.Signer
	// MaxRequestBytes bounds a write request.
	MaxRequestBytes int64
	// CheckpointInterval, BatchMaxAge and BatchMaxSize tune Tessera: how
	// often a checkpoint is published (at least 100 ms on POSIX) and how
	// entries are batched for sequencing.
	CheckpointInterval time.Duration
	BatchMaxAge        time.Duration
	BatchMaxSize       uint
	// Logger receives a line per refused request; nil discards them.
	Logger *slog.Logger
}

// Server is a running log.
type Server struct {
	origin   string
	logID    []byte
	pub      crypto.PublicKey
	maxBody  int64
	add      tessera.AddFn
	awaiter  *tessera.PublicationAwaiter
	reader   tessera.LogReader
	shutdown func(context.Context) error
	registry *signature.AlgorithmRegistryConfig
	files    http.Handler
	log      *slog.Logger

	// Hashes of complete subtrees never change: they are kept across
	// checkpoints, so a proof after the first few costs a map lookup per
	// node instead of re-hashing the tiles' leaves (150 µs an entry under
	// load, the largest share of the log's work after the signature).
	nmu   sync.Mutex
	nodes map[compact.NodeID][]byte
}

// maxCachedNodes bounds the node cache (about 80 bytes a node).
const maxCachedNodes = 1 << 18

// inclusionProof builds the proof of index in the tree of size: the node
// list and rehashing are transparency-dev/merkle's, the nodes come from the
// log's tiles; the caller verifies the proof against the checkpoint.
func (s *Server) inclusionProof(ctx context.Context, index, size uint64) ([][]byte, error) {
	nodes, err := proof.Inclusion(index, size)
	if err != nil {
		return nil, err
	}
	hashes := make([][]byte, len(nodes.IDs))
	for i, id := range nodes.IDs {
		if hashes[i], err = s.node(ctx, id, size); err != nil {
			return nil, err
		}
	}
	return nodes.Rehash(hashes, rfc6962.DefaultHasher.HashChildren)
}

// node is the hash of a complete subtree (a proof's non-ephemeral node):
// from the cache, or computed with every other complete node of its tile,
// which are all cached.
func (s *Server) node(ctx context.Context, id compact.NodeID, size uint64) ([]byte, error) {
	s.nmu.Lock()
	h, ok := s.nodes[id]
	s.nmu.Unlock()
	if ok {
		return h, nil
	}
	tileLevel, tileIndex, _, _ := layout.NodeCoordsToTileAddress(uint64(id.Level), id.Index)
	raw, err := s.reader.ReadTile(ctx, tileLevel, tileIndex, layout.PartialTileSize(tileLevel, tileIndex, size))
	if err != nil {
		return nil, fmt.Errorf("tile %d/%d: %w", tileLevel, tileIndex, err)
	}
	var tile api.HashTile
	if err := tile.UnmarshalText(raw); err != nil {
		return nil, fmt.Errorf("tile %d/%d: %w", tileLevel, tileIndex, err)
	}
	// Level k of the tile holds the complete subtrees of 2^k of its leaves.
	found := map[compact.NodeID][]byte{}
	row := tile.Nodes
	base := uint(tileLevel) * layout.TileHeight
	for k := uint(0); k <= layout.TileHeight && len(row) > 0; k++ {
		first := tileIndex << (layout.TileHeight - k)
		for j, h := range row {
			found[compact.NewNodeID(base+k, first+uint64(j))] = h
		}
		next := make([][]byte, 0, len(row)/2)
		for j := 0; j+1 < len(row); j += 2 {
			next = append(next, rfc6962.DefaultHasher.HashChildren(row[j], row[j+1]))
		}
		row = next
	}
	h, ok = found[id]
	if !ok {
		return nil, fmt.Errorf("node %d/%d is not complete in the tree of %d", id.Level, id.Index, size)
	}
	s.nmu.Lock()
	if len(s.nodes)+len(found) > maxCachedNodes {
		clear(s.nodes)
	}
	maps.Copy(s.nodes, found)
	s.nmu.Unlock()
	return h, nil
}

// clientAlgorithms are the signature algorithms entries may use, as
// rekor-tiles accepts them by default.
var clientAlgorithms = []v1.PublicKeyDetails{
	v1.PublicKeyDetails_PKIX_RSA_PKCS1V15_2048_SHA256,
	v1.PublicKeyDetails_PKIX_RSA_PKCS1V15_3072_SHA256,
	v1.PublicKeyDetails_PKIX_RSA_PKCS1V15_4096_SHA256,
	v1.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256,
	v1.PublicKeyDetails_PKIX_ECDSA_P384_SHA_384,
	v1.PublicKeyDetails_PKIX_ECDSA_P521_SHA_512,
	v1.PublicKeyDetails_PKIX_ED25519,
	v1.PublicKeyDetails_PKIX_ED25519_PH,
}

// Open starts the log in o.Dir (creating it when empty, resuming it
// otherwise: Tessera recovers the tree from its own files).
func Open(ctx context.Context, o Options) (*Server, error) {
	if o.Dir == "" || o.Origin == "" || o.Signer == nil {
		return nil, errors.New("a log needs a directory, an origin and a signing key")
	}
	if o.MaxRequestBytes == 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.CheckpointInterval == 0 {
		o.CheckpointInterval = DefaultCheckpointInterval
	}
	if o.BatchMaxAge == 0 {
		o.BatchMaxAge = DefaultBatchMaxAge
	}
	if o.BatchMaxSize == 0 {
		o.BatchMaxSize = DefaultBatchMaxSize
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Tessera logs through klog; its lines go where the log's own go.
	klog.SetSlogLogger(o.Logger)
	signer, err := signature.LoadSigner(o.Signer, crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("log key: %w", err)
	}
	noteSigner, err := note.NewNoteSigner(ctx, o.Origin, signer)
	if err != nil {
		return nil, fmt.Errorf("checkpoint signer: %w", err)
	}
	_, logID, err := note.KeyHash(o.Origin, o.Signer.Public())
	if err != nil {
		return nil, err
	}
	registry, err := signature.NewAlgorithmRegistryConfig(clientAlgorithms)
	if err != nil {
		return nil, err
	}
	driver, err := storage(ctx, o.Dir)
	if err != nil {
		return nil, fmt.Errorf("log storage %s: %w", o.Dir, err)
	}
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(noteSigner).
		WithBatching(o.BatchMaxSize, o.BatchMaxAge).
		WithCheckpointInterval(o.CheckpointInterval).
		WithAntispam(tessera.DefaultAntispamInMemorySize, nil)
	appender, shutdown, reader, err := tessera.NewAppender(ctx, driver, opts)
	if err != nil {
		return nil, fmt.Errorf("log storage %s: %w", o.Dir, err)
	}
	return &Server{
		origin: o.Origin, logID: logID, pub: o.Signer.Public(), maxBody: o.MaxRequestBytes,
		add: appender.Add, awaiter: tessera.NewPublicationAwaiter(ctx, reader.ReadCheckpoint, pollPeriod),
		reader: reader, shutdown: shutdown, registry: registry,
		files: http.FileServer(http.Dir(o.Dir)), log: o.Logger, nodes: map[compact.NodeID][]byte{},
	}, nil
}

// Close stops sequencing after what is queued is integrated.
func (s *Server) Close(ctx context.Context) error { return s.shutdown(ctx) }

// LogID is the log's id in a trusted root: the C2SP signed-note key hash
// of its origin and key, not truncated.
func (s *Server) LogID() []byte { return s.logID }

// Origin is the name in the log's checkpoints.
func (s *Server) Origin() string { return s.origin }

// PublicKey is the checkpoint signing key.
func (s *Server) PublicKey() crypto.PublicKey { return s.pub }

// ServeHTTP answers the Rekor v2 write API and the tlog-tiles read API
// (/checkpoint, /tile/..., also under /api/v2/).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := path.Clean("/" + r.URL.Path)
	switch {
	case p == EntriesPath:
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			httpError(w, http.StatusMethodNotAllowed, "POST an entry")
			return
		}
		s.createEntry(w, r)
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		httpError(w, http.StatusMethodNotAllowed, "the read API is GET")
	default:
		rel := strings.TrimPrefix(p, "/api/v2")
		if rel != "/checkpoint" && !strings.HasPrefix(rel, "/tile/") {
			httpError(w, http.StatusNotFound, "not found")
			return
		}
		if rel == "/checkpoint" {
			w.Header().Set("Cache-Control", "no-cache")
		} else if !strings.Contains(rel, ".p/") {
			// Full tiles never change.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = rel
		s.files.ServeHTTP(w, r2)
	}
}

// httpError writes an error as rekor-tiles' gateway does: a JSON status.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprintf(w, "{\"code\":%d,\"message\":%q}\n", code, msg)
}

// createEntry validates a hashedrekord request as Rekor does (the
// signature must verify over the digest before anything is appended),
// appends its canonical entry, waits for a checkpoint that includes it and
// answers with the entry, its inclusion proof and that checkpoint.
func (s *Server) createEntry(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	if err != nil {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is over %d bytes", s.maxBody))
		return
	}
	var req pb.CreateEntryRequest
	if err := protojson.Unmarshal(body, &req); err != nil {
		httpError(w, http.StatusBadRequest, "not a CreateEntryRequest: "+err.Error())
		return
	}
	hr := req.GetHashedRekordRequestV002()
	if hr == nil {
		httpError(w, http.StatusBadRequest, "invalid type, must be hashedrekord (a DSSE envelope is logged as a hashedrekord over the digest of its PAE)")
		return
	}
	if err := checkKeyDetails(hr); err != nil {
		s.log.Info("refused entry", "error", err)
		httpError(w, http.StatusBadRequest, "invalid hashedrekord request: "+err.Error())
		return
	}
	entry, err := hashedrekord.ToLogEntry(hr, s.registry)
	if err != nil {
		s.log.Info("refused entry", "error", err)
		httpError(w, http.StatusBadRequest, "invalid hashedrekord request: "+err.Error())
		return
	}
	serialized, err := protojson.Marshal(entry)
	if err != nil {
		httpError(w, http.StatusBadRequest, "invalid hashedrekord request")
		return
	}
	canonical, err := jsoncanonicalizer.Transform(serialized)
	if err != nil {
		httpError(w, http.StatusBadRequest, "invalid entry")
		return
	}
	tle, err := s.append(r.Context(), tessera.NewEntry(canonical))
	var dup duplicateError
	switch {
	case errors.As(err, &dup):
		w.Header().Set("X-Log-Index", strconv.FormatUint(uint64(dup), 10))
		httpError(w, http.StatusConflict, err.Error())
		return
	case errors.Is(err, tessera.ErrPushback):
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, "the log is busy; retry")
		return
	case r.Context().Err() != nil:
		return
	case err != nil:
		s.log.Warn("failed to integrate entry", "error", err)
		httpError(w, http.StatusInternalServerError, "failed to integrate entry")
		return
	}
	tle.KindVersion = &rekorpb.KindVersion{Kind: entry.Kind, Version: entry.ApiVersion}
	tle.LogId = &v1.LogId{KeyId: s.logID}
	out, err := protojson.Marshal(tle)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	w.Write(out)
}

type duplicateError uint64

func (d duplicateError) Error() string {
	return fmt.Sprintf("an equivalent entry already exists in the transparency log with index %d", uint64(d))
}

// append adds an entry and returns it with an inclusion proof against the
// first published checkpoint that includes it, checked before it is
// handed out.
func (s *Server) append(ctx context.Context, e *tessera.Entry) (*rekorpb.TransparencyLogEntry, error) {
	idx, cpBody, err := s.awaiter.Await(ctx, s.add(ctx, e))
	if err != nil {
		return nil, err
	}
	if idx.IsDup {
		return nil, duplicateError(idx.Index)
	}
	var cp logformat.Checkpoint
	if _, err := cp.Unmarshal(cpBody); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	hashes, err := s.inclusionProof(ctx, idx.Index, cp.Size)
	if err != nil {
		return nil, err
	}
	if err := proof.VerifyInclusion(rfc6962.DefaultHasher, idx.Index, cp.Size, e.LeafHash(), hashes, cp.Hash); err != nil {
		return nil, fmt.Errorf("inclusion proof for %d: %w", idx.Index, err)
	}
	if idx.Index > 1<<62 || cp.Size > 1<<62 {
		return nil, errors.New("the log is too large")
	}
	return &rekorpb.TransparencyLogEntry{
		LogIndex:          int64(idx.Index),
		CanonicalizedBody: e.Data(),
		InclusionProof: &rekorpb.InclusionProof{
			LogIndex:   int64(idx.Index),
			RootHash:   cp.Hash,
			TreeSize:   int64(cp.Size),
			Hashes:     hashes,
			Checkpoint: &rekorpb.Checkpoint{Envelope: string(cpBody)},
		},
	}, nil
}
