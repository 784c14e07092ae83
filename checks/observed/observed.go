// Package observed holds what a behavioral run observed, as the report
// records it and the behavioral checks judge it. The behave package fills
// it; checks only read it.
package observed

// Observation is what a behavioral run saw, as the report records it
// (report.behavior) and the behavioral checks judge it.
type Observation struct {
	Kind string `json:"kind"`
	// Harness says how the artifact was driven: skill, mcp, agent.
	Harness string `json:"harness"`
	// PassThreshold is the judge score (0..1) a run needs to pass.
	PassThreshold float64 `json:"passThreshold"`
	Cases         []Case  `json:"cases"`
	Probes        []Probe `json:"probes"`
	// Hooks are a plugin's hook commands, each run once on a sample event.
	Hooks []HookRun `json:"hooks,omitempty"`
	// Safety is the deterministic scan of the ledgers: it overrides the
	// judge.
	Safety []SafetyFinding `json:"safety"`
	Ledger Ledger          `json:"ledger"`
	// Errors are failures of attest or of a provider: they never count
	// against the artifact.
	Errors []string `json:"errors,omitempty"`
	// Skipped says why nothing ran (a veto, a missing harness).
	Skipped string `json:"skipped,omitempty"`
	// Notes say what was done to run it (dependencies installed, how).
	Notes []string `json:"notes,omitempty"`
}

// Case is one test case and its runs.
type Case struct {
	ID string `json:"id"`
	// Source is the evals file it came from, or "synthesized".
	Source string    `json:"source"`
	Prompt string    `json:"prompt"`
	Runs   []CaseRun `json:"runs"`
	Stats  *Stats    `json:"stats,omitempty"`
}

// CaseRun is one run of a case, as its judge graded it.
type CaseRun struct {
	// Transcript is the sha256 of the run's canonical transcript.
	Transcript string `json:"transcript"`
	Turns      int    `json:"turns"`
	// Score (0..1) and Pass are the judge's; nil when it did not grade.
	Score      *float64           `json:"score"`
	Pass       *bool              `json:"pass"`
	Dimensions map[string]float64 `json:"dimensions,omitempty"`
	Concerns   []string           `json:"concerns,omitempty"`
	// Refused says the judge would not grade (an injection in the
	// documentation); Error is a failure of ours or of a provider.
	Refused  string `json:"refused,omitempty"`
	Error    string `json:"error,omitempty"`
	LimitHit string `json:"limitHit,omitempty"`
}

// Probe is one adversarial probe and what it showed.
type Probe struct {
	ID       string `json:"id"`
	Class    string `json:"class"` // command-injection, path-traversal, ssrf, oversized-input
	Tool     string `json:"tool"`
	Argument string `json:"argument"`
	// Outcome: demonstrated (the vulnerability is shown, deterministically),
	// resisted, concern (robustness, not a proof), or error.
	Outcome    string `json:"outcome"`
	Detail     string `json:"detail,omitempty"`
	Transcript string `json:"transcript,omitempty"`
}

// HookRun is one hook command run in the sandbox.
type HookRun struct {
	ID         string `json:"id"`
	Event      string `json:"event"`
	Command    string `json:"command"`
	ExitCode   int    `json:"exitCode"`
	LimitHit   string `json:"limitHit,omitempty"`
	Transcript string `json:"transcript,omitempty"`
}

// Probe outcomes.
const (
	Demonstrated = "demonstrated"
	Resisted     = "resisted"
	Concern      = "concern"
	ProbeError   = "error"
)

// SafetyFinding is one rule of the deterministic scan that matched.
type SafetyFinding struct {
	Case     string `json:"case,omitempty"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"` // fail, warn
	Message  string `json:"message"`
}

// Stats summarise a case's repeated runs.
type Stats struct {
	N      int     `json:"n"`
	Passes int     `json:"passes"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	// CI is the 95% confidence interval of the mean score (Student's t,
	// right for small samples), clamped to 0..1; nil below two runs.
	CI *[2]float64 `json:"ci95"`
	// K is the k of PassAtK (at least one of k runs passes) and PassHatK
	// (all k pass), estimated from the N runs as τ-bench defines them:
	// pass@k = 1 − C(N−c,k)/C(N,k), pass^k = C(c,k)/C(N,k).
	K        int     `json:"k"`
	PassAtK  float64 `json:"passAtK"`
	PassHatK float64 `json:"passHatK"`
}

// Ledger is what the sandboxed artifact did, as recorded outside its
// reach: network attempts by the recording proxy, files and processes by
// strace.
type Ledger struct {
	// Method says how files and processes were recorded: "strace", or
	// "none" with Note saying why.
	Method    string      `json:"method"`
	Note      string      `json:"note,omitempty"`
	Network   []NetEvent  `json:"network"`
	Files     []FileEvent `json:"files"`
	Processes []ProcEvent `json:"processes"`
	// Truncated says a ledger reached its bound; what is kept comes first.
	Truncated bool `json:"truncated,omitempty"`
}

// NetEvent is one attempt to reach the network through the proxy.
type NetEvent struct {
	Case   string `json:"case,omitempty"`
	Method string `json:"method"` // CONNECT, GET, POST, …
	Host   string `json:"host"`
	Port   int    `json:"port"`
	// Allowed says the proxy let it through; Reason says why not.
	Allowed  bool   `json:"allowed"`
	Reason   string `json:"reason,omitempty"`
	BytesOut int64  `json:"bytesOut"`
	BytesIn  int64  `json:"bytesIn"`
	// Canary says the run's decoy token was in what was sent.
	Canary bool `json:"canary,omitempty"`
}

// FileEvent is one file operation by the artifact.
type FileEvent struct {
	Case string `json:"case,omitempty"`
	Op   string `json:"op"` // read, write, create, delete, rename
	Path string `json:"path"`
	// OK says the operation succeeded; an attempt that failed is still
	// recorded (reaching for ~/.ssh/id_rsa is the evidence).
	OK bool `json:"ok"`
}

// ProcEvent is one program the artifact executed.
type ProcEvent struct {
	Case string   `json:"case,omitempty"`
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	// Connect is set for a connect() the artifact made itself, bypassing
	// the proxy: the address it tried.
	Connect string `json:"connect,omitempty"`
}

// Ledger bounds.
const (
	MaxNetEvents  = 2000
	MaxFileEvents = 5000
	MaxProcEvents = 2000
)

// Merge appends o's events, tagged with a case, within the bounds.
func (l *Ledger) Merge(o *Ledger, tag string) {
	if o == nil {
		return
	}
	var cut bool
	l.Network, cut = merge(l.Network, o.Network, MaxNetEvents, func(e *NetEvent) *string { return &e.Case }, tag)
	l.Truncated = l.Truncated || cut
	l.Files, cut = merge(l.Files, o.Files, MaxFileEvents, func(e *FileEvent) *string { return &e.Case }, tag)
	l.Truncated = l.Truncated || cut
	l.Processes, cut = merge(l.Processes, o.Processes, MaxProcEvents, func(e *ProcEvent) *string { return &e.Case }, tag)
	l.Truncated = l.Truncated || cut || o.Truncated
	if l.Method == "" {
		l.Method, l.Note = o.Method, o.Note
	}
}

// merge appends src to dst up to bound, labelling unlabelled events with
// tag; cut says some were left out.
func merge[E any](dst, src []E, bound int, label func(*E) *string, tag string) ([]E, bool) {
	for _, e := range src {
		if len(dst) >= bound {
			return dst, true
		}
		if c := label(&e); *c == "" {
			*c = tag
		}
		dst = append(dst, e)
	}
	return dst, false
}
