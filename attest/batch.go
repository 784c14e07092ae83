package attest

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// BatchItem is one target's outcome in a batch.
type BatchItem struct {
	Index    int
	Target   string
	Report   *Report
	Cached   bool
	Err      error
	Duration time.Duration
}

// Batch evaluates targets, workers at a time, each with one check at a
// time: running artifacts side by side keeps every core busy without the
// overhead of parallel checks, and workers is then the number of cores
// used. done is called for each target as it finishes, never concurrently.
func Batch(ctx context.Context, targets []string, workers int, opts Options, done func(BatchItem)) {
	if workers < 1 {
		workers = 1
	}
	if workers > len(targets) {
		workers = len(targets)
	}
	opts.Parallel = 1
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				o := opts
				var cached bool
				o.Cached = &cached
				start := time.Now()
				var r *Report
				err := ctx.Err()
				if err == nil {
					r, err = Evaluate(ctx, targets[i], o)
				}
				item := BatchItem{Index: i, Target: targets[i], Report: r, Cached: cached, Err: err, Duration: time.Since(start)}
				mu.Lock()
				done(item)
				mu.Unlock()
			}
		})
	}
	for _, i := range longestFirst(targets, opts.Cache) {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// longestFirst orders targets so the longest evaluations start early and
// none runs alone at the end: first the local trees the cache has no
// timing for, largest (in bytes) first; then those it has, by how long
// their last evaluation took; remote targets keep their place after them.
// A tree too large to size quickly counts as largest.
func longestFirst(targets []string, cache *Cache) []int {
	size := make([]int64, len(targets))
	took := make([]int64, len(targets))
	order := make([]int, len(targets))
	for i, t := range targets {
		order[i] = i
		size[i] = -1
		if !isDir(t) {
			continue
		}
		if cache != nil {
			if ms, ok := cache.lastEval(t); ok {
				took[i] = ms
				continue
			}
		}
		var n, files int64
		filepath.WalkDir(t, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if files++; files > maxFingerprintEntries {
				n = math.MaxInt64
				return filepath.SkipAll
			}
			if d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
		size[i] = n
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if size[x] != size[y] {
			return size[x] > size[y]
		}
		return took[x] > took[y]
	})
	return order
}

// ParseShard reads "i/n" (1 <= i <= n).
func ParseShard(s string) (i, n int, err error) {
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return 0, 0, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/4", s)
	}
	return i, n, nil
}

// Shard keeps the targets of shard i of n: a target's shard is a hash of
// the target itself, so the shards are disjoint, cover the list, and a
// target stays on its shard when others are added (its cache stays warm
// on the same CI machine).
func Shard(targets []string, i, n int) []string {
	var out []string
	for _, t := range targets {
		h := fnv.New64a()
		h.Write([]byte(t))
		if int(h.Sum64()%uint64(n)) == i-1 {
			out = append(out, t)
		}
	}
	return out
}
