package remote

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/metahub-ai/attest/resolve"
)

// A run stopped while a target is fetched (Ctrl-C cancels the run's
// context) ends the fetch and leaves no checkout behind.
func TestRemoteFetchCancelledLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	hung := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a server that never answers
		case <-r.Context().Done():
		case <-hung:
		}
	}))
	defer srv.Close()
	defer close(hung)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := resolve.Load(ctx, srv.URL+"/x.git", resolve.LoadOptions{Remote: Fetch})
	if err == nil {
		t.Fatal("a cancelled fetch succeeded")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the fetch outlived its cancellation by %s", d)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// Without a fetcher a remote target is refused, never reached.
func TestRemoteTargetWithoutFetcher(t *testing.T) {
	reached := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true }))
	defer srv.Close()
	if _, err := resolve.Load(context.Background(), srv.URL+"/x.git", resolve.LoadOptions{}); err == nil || reached {
		t.Fatalf("a remote target without a fetcher: err %v, server reached %v", err, reached)
	}
}
