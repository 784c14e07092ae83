package resolve

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestMemoComputesOnce(t *testing.T) {
	s := &Subject{}
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := s.Memo("k", func() any { calls.Add(1); return 42 }); v != 42 {
				t.Errorf("Memo = %v", v)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("computed %d times", calls.Load())
	}
}

// TestPrefetchSkipsClaimedWork: Prefetch returns at once on a key another
// caller is computing (it would deadlock here otherwise), computes an
// unclaimed one, and Memo then waits for the claimed one.
func TestPrefetchSkipsClaimedWork(t *testing.T) {
	s := &Subject{}
	started, release := make(chan struct{}), make(chan struct{})
	go s.Memo("slow", func() any { close(started); <-release; return "slow" })
	<-started
	s.Prefetch("slow", func() any { t.Error("Prefetch computed a claimed key"); return nil })
	s.Prefetch("free", func() any { return "free" })
	if v := s.Memo("free", func() any { t.Error("recomputed"); return nil }); v != "free" {
		t.Errorf("free = %v", v)
	}
	close(release)
	if v := s.Memo("slow", func() any { t.Error("recomputed"); return nil }); v != "slow" {
		t.Errorf("slow = %v", v)
	}
}

// TestMemoPanicReleasesWaiters: a compute that panics leaves nil for the
// callers waiting on it rather than blocking them forever.
func TestMemoPanicReleasesWaiters(t *testing.T) {
	s := &Subject{}
	func() {
		defer func() { recover() }()
		s.Memo("p", func() any { panic("boom") })
	}()
	if v := s.Memo("p", func() any { return "again" }); v != nil {
		t.Errorf("after a panic: %v, want nil", v)
	}
}
