package attest

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHostileCacheFIFO: FIFOs in place of the cache's entries (the tree
// record and the report of an artifact) neither block an evaluation nor
// are taken for a cached report; the artifact is evaluated afresh.
func TestHostileCacheFIFO(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "pdf-forms")
	copyTree(t, filepath.Join("..", "testdata", "samples", "pdf-forms"), dst)
	dir := t.TempDir()
	opts := Options{Cache: &Cache{Dir: dir}}
	if _, err := Evaluate(context.Background(), dst, opts); err != nil {
		t.Fatal(err)
	}
	var entries []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			entries = append(entries, p)
		}
		return nil
	})
	if len(entries) < 2 {
		t.Fatalf("the cache holds %v, want a tree record and a report", entries)
	}
	for _, p := range entries {
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cached bool
	opts.Cached = &cached
	done := make(chan error, 1)
	go func() {
		_, err := Evaluate(context.Background(), dst, opts)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || cached {
			t.Errorf("err %v, cached %v", err, cached)
		}
	case <-time.After(30 * time.Second):
		for _, p := range entries {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Fatal("a FIFO in the cache blocked the evaluation")
	}
}
