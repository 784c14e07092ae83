package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGC: a small heap runs at the raised percentage, the default
// returns once the live heap passes largeHeap, and a quarter holds past
// hugeHeap.
func TestTuneGC(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("SKIPPING: GOGC is set, which Apply leaves alone")
	}
	defer debug.SetGCPercent(100)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	Apply()
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set && debug.SetMemoryLimit(-1) != memoryLimit {
		t.Errorf("memory limit %d, want %d", debug.SetMemoryLimit(-1), memoryLimit)
	}
	runtime.GC()
	runtime.GC()
	if p := gcPercent(); p != smallHeapGCPercent {
		t.Fatalf("small heap: GC percent %d, want %d", p, smallHeapGCPercent)
	}
	live := make([]byte, largeHeap+8<<20)
	for i := range live {
		live[i] = byte(i)
	}
	// The cleanup runs on its own goroutine after the cycle; a few cycles
	// give it the chance without waiting on a clock.
	for i := 0; i < 50 && gcPercent() != 100; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if p := gcPercent(); p != 100 {
		t.Fatalf("live heap over %d bytes: GC percent %d, want 100", largeHeap, p)
	}
	huge := make([]byte, hugeHeap)
	for i := range huge {
		huge[i] = byte(i)
	}
	for i := 0; i < 50 && gcPercent() != hugeHeapGCPercent; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	runtime.KeepAlive(live)
	runtime.KeepAlive(huge)
	if p := gcPercent(); p != hugeHeapGCPercent {
		t.Fatalf("live heap over %d bytes: GC percent %d, want %d", hugeHeap, p, hugeHeapGCPercent)
	}
}
