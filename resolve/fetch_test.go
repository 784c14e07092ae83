package resolve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/metahub-ai/attest/cmd/attest-net/nettest"
)

// A run stopped while the helper fetches (Ctrl-C cancels the run's
// context) kills the helper and leaves no checkout behind.
func TestRemoteFetchCancelledLeavesNothing(t *testing.T) {
	t.Setenv(EnvNetHelper, nettest.Binary(t))
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
	_, err := Load(ctx, srv.URL+"/x.git", LoadOptions{})
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
