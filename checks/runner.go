package checks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/metahub-ai/attest/resolve"
)

// smallArtifact is the size under which checks run one at a time.
const smallArtifact = 64 << 10

// DefaultCheckTimeout bounds one check's run.
const DefaultCheckTimeout = 30 * time.Second

// RunOptions configures Run. The zero value is offline (DefaultGrants
// applied when Grants is zero), GOMAXPROCS workers, DefaultCheckTimeout.
type RunOptions struct {
	Grants    Grants
	StartedAt time.Time
	Timeout   time.Duration
	Parallel  int
	Logger    *slog.Logger
	// Progress, when set, is called after each check finishes.
	Progress func(done, total int, id string)
}

// Outcome is one check's result in a run.
type Outcome struct {
	Check    *Check
	Result   Result
	Duration time.Duration
}

// Run evaluates every check of the catalog that applies to the subject's
// kind, in parallel, and returns the outcomes sorted by check id. A check
// that needs an ungranted capability is skipped without running; one that
// panics, errors or overruns its timeout ends as status error.
func Run(ctx context.Context, s *resolve.Subject, cat *Catalog, opts RunOptions) []Outcome {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultCheckTimeout
	}
	if opts.Parallel <= 0 {
		opts.Parallel = runtime.GOMAXPROCS(0)
		// A small artifact's checks finish in well under a millisecond;
		// running them one at a time spares starting threads.
		if s.Inventory != nil && s.Inventory.Bytes < smallArtifact {
			opts.Parallel = 1
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	var todo []*Check
	for _, c := range cat.Checks() {
		if c.AppliesTo(s.Kind) {
			todo = append(todo, c)
		}
	}
	out := make([]Outcome, len(todo))
	sem := make(chan struct{}, opts.Parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i, c := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = runOne(ctx, s, c, opts)
			if opts.Progress != nil {
				mu.Lock()
				done++
				opts.Progress(done, len(todo), c.ID)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

func runOne(ctx context.Context, s *resolve.Subject, c *Check, opts RunOptions) Outcome {
	for _, n := range c.Needs {
		if !opts.Grants.Has(n) {
			return Outcome{Check: c, Result: Result{Status: Skip, SkipReason: SkipCapability,
				Summary: fmt.Sprintf("needs the %s capability, which this run was not granted", n)}}
		}
	}
	in := &Input{Subject: s}
	for _, n := range c.Needs {
		if n == Clock {
			in.StartedAt = opts.StartedAt
		}
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	start := time.Now()
	type ret struct {
		r   Result
		err error
	}
	ch := make(chan ret, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				opts.Logger.Error("check panicked", "check", c.ID, "panic", p, "stack", string(debug.Stack()))
				ch <- ret{err: fmt.Errorf("check panicked: %v", p)}
			}
		}()
		r, err := c.Run(ctx, in)
		ch <- ret{r, err}
	}()
	var r ret
	select {
	case r = <-ch:
	case <-ctx.Done():
		// The check's goroutine is abandoned; its result, if any, is dropped.
		r.err = ctx.Err()
		if errors.Is(r.err, context.DeadlineExceeded) {
			r.err = fmt.Errorf("timed out after %s", opts.Timeout)
		}
	}
	o := Outcome{Check: c, Duration: time.Since(start)}
	if r.err != nil {
		o.Result = Result{Status: Error, Summary: "the check could not complete: " + r.err.Error()}
		return o
	}
	o.Result = normalize(r.r)
	return o
}

// normalize enforces the result invariants the formula relies on.
func normalize(r Result) Result {
	switch r.Status {
	case Pass, Warn, Fail, Neutral, Skip:
	default:
		return Result{Status: Error, Summary: fmt.Sprintf("the check returned an unknown status %q", r.Status)}
	}
	if r.Status != Warn {
		r.Score = nil
	} else if r.Score != nil && (*r.Score < 0 || *r.Score > 1 || *r.Score != *r.Score) {
		return Result{Status: Error, Summary: "the check returned a warn score outside 0..1"}
	}
	if r.Status == Skip && r.SkipReason == "" {
		r.SkipReason = SkipLimit
	}
	if r.Status != Skip {
		r.SkipReason = ""
	}
	if n := len(r.Evidence); n > MaxEvidence {
		r.Evidence = append(r.Evidence[:MaxEvidence:MaxEvidence], Metric("evidence_total", float64(n), "items"))
	}
	return r
}
