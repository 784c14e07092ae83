package checks

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/observed"
	"github.com/metahub-ai/attest/resolve"
)

// Status is a check's outcome (ARCHITECTURE §3.2).
type Status string

const (
	Pass    Status = "pass"
	Warn    Status = "warn"
	Fail    Status = "fail"
	Neutral Status = "neutral" // does not apply
	Skip    Status = "skip"    // wanted to look and could not
	Error   Status = "error"   // the tool failed; never counts against the artifact
)

// Axis is one of the four scored axes.
type Axis string

const (
	Integrity Axis = "integrity"
	Safety    Axis = "safety"
	Care      Axis = "care"
	Behavior  Axis = "behavior"
)

// Axes lists the axes in report order.
var Axes = []Axis{Integrity, Safety, Care, Behavior}

// Tier says how reproducible a check's verdict is.
type Tier string

const (
	Deterministic Tier = "deterministic" // a pure function of the bytes and the check version
	Replayable    Tier = "replayable"    // model or sandbox; transcripts recorded
	Sampled       Tier = "sampled"       // depends on time or the network
)

// Capability is something a check may need beyond the artifact's bytes.
type Capability string

const (
	Net     Capability = "net"
	Model   Capability = "model"
	Sandbox Capability = "sandbox"
	Clock   Capability = "clock"
)

// Grants says which capabilities this run allows.
type Grants struct {
	Net     bool `json:"net"`
	Model   bool `json:"model"`
	Sandbox bool `json:"sandbox"`
	Clock   bool `json:"clock"`
}

// DefaultGrants is offline: only the clock (the run's start time).
var DefaultGrants = Grants{Clock: true}

// Has reports whether c is granted.
func (g Grants) Has(c Capability) bool {
	switch c {
	case Net:
		return g.Net
	case Model:
		return g.Model
	case Sandbox:
		return g.Sandbox
	case Clock:
		return g.Clock
	}
	return false
}

// Check is one unit of evaluation.
type Check struct {
	ID      string // stable kebab-case; deprecate, never rename
	Version string // semver; bump when a verdict could change on the same input
	Title   string
	Axis    Axis
	Weight  int
	// Blocking checks fail the verdict on a fail; they report fail only for
	// the conditions their doc marks as failing, warn otherwise.
	Blocking bool
	Tier     Tier
	Kinds    []resolve.Kind
	// Forms lists the forms other than a package (a captured surface, a
	// client configuration) an integrity check judges; integrity judges a
	// package, so without the form listed it does not apply.
	Forms []resolve.Form
	Needs []Capability
	// Uses names what the check reads beyond the subject's bytes:
	// UsesFacts (the analysis model and its vocabulary). The versions of what it
	// uses enter its catalog entry, so a re-run at its version stays
	// sound when the model changes.
	Uses []string
	// Doc says what the check detects and why it matters; Remediation how
	// to fix a finding.
	Doc         string
	Remediation string
	Run         func(ctx context.Context, in *Input) (Result, error)
}

// AppliesTo reports whether the check evaluates artifacts of kind k.
func (c *Check) AppliesTo(k resolve.Kind) bool {
	for _, x := range c.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// JudgesForm reports whether the check applies to a subject of form f:
// every check judges a package, and an integrity check judges another
// form only when it lists it.
func (c *Check) JudgesForm(f resolve.Form) bool {
	return f == resolve.FormPackage || c.Axis != Integrity || slices.Contains(c.Forms, f)
}

// Input is what a check sees.
type Input struct {
	Subject *resolve.Subject
	// StartedAt is the run's start time, set only for checks granted the
	// clock; it is the only time a check may read.
	StartedAt time.Time
	// Behavior is what the behavioral run observed, set only for checks
	// granted the sandbox and the model; nil when nothing ran.
	Behavior *observed.Observation
}

// UsesFacts is the Uses name of the analysis model (checks/facts).
const UsesFacts = "facts"

// Facts returns the analysis model of the subject, built once per subject
// for every check that asks (a check that asks declares Uses: UsesFacts).
func (in *Input) Facts() *facts.Set { return analysis.Of(in.Subject) }

// Result is what a check found.
type Result struct {
	Status   Status
	Summary  string
	Detail   string
	Evidence []Evidence
	// Score refines warn only, in 0..1; nil means the default 0.5.
	Score *float64
	// SkipReason says why a skip happened: SkipCapability, SkipPolicy or
	// SkipLimit. Only a missing capability or a policy leaves the verdict
	// able to pass.
	SkipReason string
}

// Skip reasons.
const (
	SkipCapability = "capability"
	SkipPolicy     = "policy"
	SkipLimit      = "limit"
)

// Evidence kinds.
const (
	EvidenceFile       = "file"
	EvidenceURL        = "url"
	EvidenceTranscript = "transcript"
	EvidenceMetric     = "metric"
)

// MaxEvidence bounds the evidence of one result; the runner keeps the first
// MaxEvidence items and records the true total as the evidence_total metric.
const MaxEvidence = 50

// Evidence is one item supporting a result. A secret is never quoted: a
// file item carries its path and line only.
type Evidence struct {
	Type    string   `json:"type"`
	Path    string   `json:"path,omitempty"`
	Line    int      `json:"line,omitempty"`
	Column  int      `json:"column,omitempty"`
	URL     string   `json:"url,omitempty"`
	SHA256  string   `json:"sha256,omitempty"`
	Turns   int      `json:"turns,omitempty"`
	Name    string   `json:"name,omitempty"`
	Value   *float64 `json:"value,omitempty"`
	Unit    string   `json:"unit,omitempty"`
	Message string   `json:"message,omitempty"`
}

// Where prefixes an item's message with its path:line, for a summary; an
// item with no path is its message.
func (e Evidence) Where() string {
	if e.Path == "" {
		return e.Message
	}
	return fmt.Sprintf("%s:%d %s", e.Path, e.Line, e.Message)
}

// At is a file evidence item.
func At(path string, line, col int, msg string) Evidence {
	return Evidence{Type: EvidenceFile, Path: path, Line: line, Column: col, Message: msg}
}

// Metric is a metric evidence item.
func Metric(name string, v float64, unit string) Evidence {
	return Evidence{Type: EvidenceMetric, Name: name, Value: &v, Unit: unit}
}

// Warning returns a warn result with a graded score.
func Warning(score float64, summary string, ev ...Evidence) Result {
	return Result{Status: Warn, Summary: summary, Score: &score, Evidence: ev}
}
