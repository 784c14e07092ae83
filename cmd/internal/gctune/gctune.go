// Package gctune sets the garbage collector for attest's short-lived
// processes (attest).
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// Garbage-collector settings for a short-lived process. With the default
// (GOGC=100, a 4 MiB minimum goal) a run over a few hundred KB of source
// collects several times and keeps touching fresh pages, each a page fault;
// a goal of 5x the live heap halves the GC cycles of a typical run
// (servers/src/everything: 53 -> 48 ms whole-process, same peak RSS). Above
// largeHeap of live data the default returns, so a large artifact does not
// hold five times its live heap.
const (
	smallHeapGCPercent = 400
	largeHeap          = 32 << 20
)

// batchGCPercent is the goal for a batch: several artifacts in flight make
// a larger live heap by design, and collecting it at the default
// percentage cost a two-worker batch of public skills and servers 12% of
// its wall time (0.63 of one worker's instead of 0.56); peak RSS stays
// under 60 MiB.
const batchGCPercent = 200

var batch atomic.Bool

// Batch sets the collector for a batch of evaluations, unless GOGC is
// set: a fixed goal, no return to the default.
func Batch() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	batch.Store(true)
	debug.SetGCPercent(batchGCPercent)
}

// memoryLimit is the soft limit of one evaluation's heap, under the 512
// MiB a run may use: the 256 MiB of content it keeps for scanning and the
// working memory the code and document budgets bound beside it. Near it
// the collector runs more often instead of letting garbage double the
// heap (an 8 MiB minified bundle: 864 MiB peak RSS with no limit); a run
// that needs more still gets it.
const memoryLimit = 448 << 20

// Apply applies the settings unless GOGC is set, which always wins
// (GOMEMLIMIT likewise for the memory limit).
func Apply() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(smallHeapGCPercent)
	watchHeap(false)
}

// gcSentinel is allocated for its cleanup, which runs after the GC cycle
// that finds it unreachable; 16 bytes keeps it out of the tiny allocator,
// whose blocks may never be freed.
type gcSentinel struct{ _ [16]byte }

// hugeHeap is the heap past which garbage is collected at a quarter of
// the live heap: only a hostile size gets there (one 8 MiB minified
// bundle: its parse is about 150 MB), and there the collector's CPU is
// cheaper than the memory (that bundle: 449 MiB peak RSS at the default
// percentage, 285 MiB at 25, for 25% more CPU).
const (
	hugeHeap          = 128 << 20
	hugeHeapGCPercent = 25
)

// watchHeap checks the heap after every GC cycle: past largeHeap it
// restores the default percentage, past hugeHeap it lowers it and stops
// watching. ReadMemStats stops the world briefly, once per cycle;
// runtime/metrics would read the live heap without that, but its package
// initialisation alone costs 1.6 ms, more than a small run collects.
func watchHeap(large bool) {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if batch.Load() {
			return
		}
		switch {
		case m.HeapAlloc > hugeHeap:
			debug.SetGCPercent(hugeHeapGCPercent)
			return
		case m.HeapAlloc > largeHeap && !large:
			debug.SetGCPercent(100)
			large = true
		}
		watchHeap(large)
	}, struct{}{})
}
