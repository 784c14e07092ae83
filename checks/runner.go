package checks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/observed"
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
	// Select, when set, runs only the checks it accepts (the behavioral
	// checks run after the static ones, which can veto the run).
	Select func(*Check) bool
	// Behavior is handed to checks granted the sandbox and the model.
	Behavior *observed.Observation
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
		if c.AppliesTo(s.Kind) && (opts.Select == nil || opts.Select(c)) {
			todo = append(todo, c)
		}
	}
	buildModel(ctx, s, todo)
	return runPool(ctx, s, todo, opts)
}

// buildModel builds the analysis model before the checks that read it
// start their clocks: it is shared work, bounded by its own budget
// (checks/analysis), and a check's timeout is for the check's own logic.
// A large artifact's documentation takes the model seconds; waiting on it
// must not time every check out. A cancelled run stops waiting at once.
func buildModel(ctx context.Context, s *resolve.Subject, todo []*Check) {
	uses := slices.ContainsFunc(todo, func(c *Check) bool { return slices.Contains(c.Uses, UsesFacts) })
	if !uses || s.Inventory == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { recover() }() // a check that reads it reports the panic
		analysis.Of(s)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// event is a worker's report: the start of job i (done false) or its
// outcome.
type event struct {
	i    int
	w    *worker
	done bool
	o    Outcome
}

type worker struct{ abandoned atomic.Bool }

// runPool runs the jobs on opts.Parallel long-lived workers, which keep
// their grown stacks from one check to the next. A check that overruns its
// timeout is recorded as an error at its deadline and its worker abandoned
// (a fresh one takes its place), so a check that ignores its context delays
// nothing.
func runPool(ctx context.Context, s *resolve.Subject, todo []*Check, opts RunOptions) []Outcome {
	out := make([]Outcome, len(todo))
	if len(todo) == 0 {
		return out
	}
	jobs := make(chan int, len(todo))
	for i := range todo {
		jobs <- i
	}
	close(jobs)
	// Room for every event any worker can send, so an abandoned worker
	// never blocks.
	events := make(chan event, 2*len(todo))
	work := func(w *worker) {
		for i := range jobs {
			if ctx.Err() != nil {
				events <- event{i: i, w: w, done: true, o: Outcome{Check: todo[i], Result: Result{Status: Error, Summary: "the check could not complete: " + ctx.Err().Error()}}}
				continue
			}
			events <- event{i: i, w: w}
			o := runOne(ctx, s, todo[i], opts)
			events <- event{i: i, w: w, done: true, o: o}
			if w.abandoned.Load() {
				return
			}
		}
	}
	for range min(opts.Parallel, len(todo)) {
		go work(&worker{})
	}
	type running struct {
		w        *worker
		deadline time.Time
	}
	active := map[int]running{}
	finished := make([]bool, len(todo))
	remaining := len(todo)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	finish := func(i int, o Outcome) {
		out[i], finished[i] = o, true
		delete(active, i)
		remaining--
		if opts.Progress != nil {
			opts.Progress(len(todo)-remaining, len(todo), todo[i].ID)
		}
	}
	for remaining > 0 {
		next := time.Time{}
		for _, r := range active {
			if next.IsZero() || r.deadline.Before(next) {
				next = r.deadline
			}
		}
		var tick <-chan time.Time
		if !next.IsZero() {
			timer.Reset(time.Until(next))
			tick = timer.C
		}
		select {
		case ev := <-events:
			if finished[ev.i] {
				continue // a late result from an abandoned worker
			}
			if !ev.done {
				active[ev.i] = running{ev.w, time.Now().Add(opts.Timeout)}
				continue
			}
			finish(ev.i, ev.o)
		case <-tick:
			now := time.Now()
			for i, r := range active {
				if now.Before(r.deadline) {
					continue
				}
				r.w.abandoned.Store(true)
				go work(&worker{})
				finish(i, Outcome{Check: todo[i], Duration: opts.Timeout,
					Result: Result{Status: Error, Summary: fmt.Sprintf("the check could not complete: timed out after %s", opts.Timeout)}})
			}
		}
	}
	return out
}

var notAPackage = map[resolve.Form]string{
	resolve.FormSurface:      "the artifact is a captured MCP surface, not a package",
	resolve.FormClientConfig: "the artifact is an MCP client configuration, not a package",
}

// runOne runs one check on the calling goroutine, turning a panic into an
// error result.
func runOne(ctx context.Context, s *resolve.Subject, c *Check, opts RunOptions) (o Outcome) {
	if f := s.Form(); !c.JudgesForm(f) {
		// Integrity judges a package; a captured surface or a client
		// configuration has none.
		return Outcome{Check: c, Result: NotApplicable(notAPackage[f])}
	}
	for _, n := range c.Needs {
		if !opts.Grants.Has(n) {
			return Outcome{Check: c, Result: Result{Status: Skip, SkipReason: SkipCapability,
				Summary: fmt.Sprintf("needs the %s capability, which this run was not granted", n)}}
		}
	}
	in := &Input{Subject: s}
	sandbox, model := false, false
	for _, n := range c.Needs {
		switch n {
		case Clock:
			in.StartedAt = opts.StartedAt
		case Sandbox:
			sandbox = true
		case Model:
			model = true
		}
	}
	if sandbox && model {
		in.Behavior = opts.Behavior
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	start := time.Now()
	o = Outcome{Check: c}
	defer func() {
		if p := recover(); p != nil {
			opts.Logger.Error("check panicked", "check", c.ID, "panic", p, "stack", string(debug.Stack()))
			o.Result = Result{Status: Error, Summary: fmt.Sprintf("the check could not complete: check panicked: %v", p)}
		}
		o.Duration = time.Since(start)
	}()
	r, err := c.Run(ctx, in)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %s", opts.Timeout)
		}
		o.Result = Result{Status: Error, Summary: "the check could not complete: " + err.Error()}
		return o
	}
	o.Result = normalize(r)
	return o
}

// normalize enforces the result invariants the formula relies on.
func normalize(r Result) Result {
	switch r.Status {
	case Pass, Warn, Fail, Neutral, Skip:
	case Error:
		// A check that ran but could not judge (a model provider's outage,
		// a judge that refused) says so with its evidence.
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
