package main

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/metahub-ai/attest/attest/keys"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/tlog"
	"github.com/metahub-ai/attest/verify"
)

// A log directory holds the key, a record of the log's identity and the
// Tessera storage, which is all that is ever served.
const (
	logKeyName = "log-key"
	logInfo    = "log.json"
	logTiles   = "tiles"
)

// logRecord pins a log directory's origin and key: a restart with another
// would sign checkpoints no verifier of the old ones accepts.
type logRecord struct {
	Origin  string    `json:"origin"`
	KeyID   string    `json:"keyId"`
	URL     string    `json:"url,omitempty"`
	Created time.Time `json:"created"`
}

func readRecord(dir string) (*logRecord, error) {
	b, err := os.ReadFile(filepath.Join(dir, logInfo))
	if err != nil {
		return nil, err
	}
	var r logRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, logInfo), err)
	}
	return &r, nil
}

func writeRecord(dir string, r *logRecord) error {
	b, _ := json.MarshalIndent(r, "", "  ")
	tmp := filepath.Join(dir, logInfo+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, logInfo))
}

// logServe is 'attest log serve --dir DIR [--addr ADDR] [--key KEY]
// [--origin NAME]'.
func logServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("log serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "the log's directory")
	addr := fs.String("addr", "127.0.0.1:3080", "address to listen on")
	keyPath := fs.String("key", "", "checkpoint signing key (PKCS#8 PEM); default DIR/log-key.pem, made on first start")
	origin := fs.String("origin", "", "the log's name in its checkpoints: the host verifiers reach it by (default: the host of --addr)")
	maxBody := fs.Int64("max-request-bytes", tlog.DefaultMaxRequestBytes, "largest write request accepted")
	cpInterval := fs.Duration("checkpoint-interval", tlog.DefaultCheckpointInterval, "how often a checkpoint is published (at least 100ms)")
	batchAge := fs.Duration("batch-max-age", tlog.DefaultBatchMaxAge, "longest an entry waits to be sequenced")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() != 0 {
		return errors.New("usage: attest log serve --dir DIR [--addr ADDR] [--key KEY.pem] [--origin NAME]")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if *origin == "" {
		*origin = host
	}
	key, err := logKey(*dir, *keyPath)
	if err != nil {
		return err
	}
	id, _ := keys.ID(key.Public())
	rec, err := readRecord(*dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		rec = &logRecord{Origin: *origin, KeyID: id, Created: time.Now().UTC()}
	case err != nil:
		return err
	case rec.Origin != *origin:
		return fmt.Errorf("the log in %s signs its checkpoints as %q; serving it as %q would break every verifier of them (pass --origin %s)", *dir, rec.Origin, *origin, rec.Origin)
	case rec.KeyID != id:
		return fmt.Errorf("the log in %s signs its checkpoints with keyid %s, not %s", *dir, rec.KeyID, id)
	}
	url := "http://" + ln.Addr().String()
	if host != *origin {
		url = "" // reached by another name (a proxy); trusted-root needs --url
	}
	rec.URL = url
	if err := writeRecord(*dir, rec); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := tlog.Open(ctx, tlog.Options{Dir: filepath.Join(*dir, logTiles), Origin: *origin, Signer: key, MaxRequestBytes: *maxBody, Logger: logger,
		CheckpointInterval: *cpInterval, BatchMaxAge: *batchAge})
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	fmt.Fprintf(stdout, "serving log %s at http://%s (keyid %s, log id %x); Ctrl-C stops\n", *origin, ln.Addr(), id, s.LogID())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	var serveErr error
	select {
	case serveErr = <-done:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		serveErr = srv.Shutdown(sctx)
		cancel()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Close(sctx); err != nil && serveErr == nil {
		serveErr = err
	}
	return serveErr
}

// logKey loads the checkpoint key, or makes DIR/log-key.pem (ECDSA P-256)
// on a log's first start.
func logKey(dir, keyPath string) (crypto.Signer, error) {
	if keyPath != "" {
		return keys.LoadPrivate(keyPath)
	}
	p := filepath.Join(dir, logKeyName)
	if _, err := os.Stat(p + ".pem"); err == nil {
		return keys.LoadPrivate(p + ".pem")
	}
	if _, err := os.Stat(filepath.Join(dir, logInfo)); err == nil {
		return nil, fmt.Errorf("%s has a log but no %s.pem: pass its key with --key", dir, logKeyName)
	}
	k, err := keys.Generate(keys.ECDSAP256)
	if err != nil {
		return nil, err
	}
	if _, err := keys.Write(p, k); err != nil {
		return nil, err
	}
	return k, nil
}

// logTrustedRoot is 'attest log trusted-root (--dir DIR | --key PUB
// --origin NAME) [--url URL]'.
func logTrustedRoot(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("log trusted-root", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "the log's directory")
	u := fs.String("url", "", "the URL verifiers know the log by (default: where it was last served)")
	pubPath := fs.String("key", "", "the log's public key, for a log whose directory is elsewhere")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || (*dir == "") == (*pubPath == "") {
		return errors.New("usage: attest log trusted-root (--dir DIR | --key LOG.pub.pem --url URL) [--url URL]")
	}
	var pub crypto.PublicKey
	var origin string
	since := time.Now().UTC()
	if *dir != "" {
		rec, err := readRecord(*dir)
		if err != nil {
			return fmt.Errorf("%s holds no log (%w): start it once with attest log serve", *dir, err)
		}
		k, err := keys.LoadPublic(filepath.Join(*dir, logKeyName+".pub.pem"))
		if err != nil {
			return err
		}
		pub, origin, since = k, rec.Origin, rec.Created
		if *u == "" {
			*u = rec.URL
		}
	} else {
		k, err := keys.LoadPublic(*pubPath)
		if err != nil {
			return err
		}
		pub = k
	}
	if *u == "" {
		return errors.New("--url is needed: the log was last served under another name than its origin")
	}
	if origin == "" {
		parsed, err := url.Parse(*u)
		if err != nil {
			return err
		}
		origin = parsed.Hostname()
	}
	b, err := tlog.TrustedRoot(*u, origin, pub, since)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

// logVerify is 'attest log verify --url URL --since FILE
// (--trusted-root FILE | --key PUB) [--update]': monitor mode.
func logVerify(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("log verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	u := fs.String("url", "", "the log's URL")
	since := fs.String("since", "", "an older checkpoint of the log (a checkpoint file, or a bundle it logged)")
	rootPath := fs.String("trusted-root", "", "trusted_root.json naming the log")
	pubPath := fs.String("key", "", "the log's public key")
	update := fs.Bool("update", false, "after a consistent check, write the current checkpoint to the --since file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *u == "" || *since == "" || fs.NArg() != 0 || (*rootPath == "") == (*pubPath == "") {
		return errors.New("usage: attest log verify --url URL --since CHECKPOINT (--trusted-root FILE | --key LOG.pub.pem) [--update]")
	}
	parsed, err := url.Parse(*u)
	if err != nil || parsed.Hostname() == "" {
		return fmt.Errorf("--url %q: not an absolute URL", *u)
	}
	origin := parsed.Hostname()
	var pub crypto.PublicKey
	if *pubPath != "" {
		if pub, err = keys.LoadPublic(*pubPath); err != nil {
			return err
		}
	} else {
		b, err := resolve.ReadFileMax(*rootPath, verify.MaxTrustedRoot)
		if err != nil {
			return err
		}
		tr, err := root.NewTrustedRootFromJSON(b)
		if err != nil {
			return fmt.Errorf("%s: %w", *rootPath, err)
		}
		for _, tl := range tr.RekorLogs() {
			if lu, err := url.Parse(tl.BaseURL); err == nil && lu.Hostname() == origin {
				pub = tl.PublicKey
			}
		}
		if pub == nil {
			return fmt.Errorf("%s names no log at %s", *rootPath, origin)
		}
	}
	raw, err := resolve.ReadFileMax(*since, tlog.MaxCheckpointBytes*4)
	if err != nil {
		return err
	}
	old, err := tlog.CheckpointOf(raw)
	if err != nil {
		return fmt.Errorf("--since %s: %w", *since, err)
	}
	c, err := tlog.CheckConsistency(ctx, *u, old, origin, pub, nil)
	if errors.Is(err, tlog.ErrSplitView) {
		fmt.Fprintf(stdout, "fail  split view of log %s: %v\n", origin, err)
		return errFailed
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ok    log %s: the tree of %d entries (root %x) extends the one of %d (root %x); consistency proof of %d hashes\n", origin, c.NewSize, c.NewRoot, c.OldSize, c.OldRoot, c.ProofHashes)
	if *update {
		tmp := *since + ".tmp"
		if err := os.WriteFile(tmp, c.CurrentCheckpoint, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, *since)
	}
	return nil
}
