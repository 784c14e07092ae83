package behave

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/gowebpki/jcs"
)

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
	// Safety is the deterministic scan of the ledgers: it overrides the
	// judge.
	Safety []SafetyFinding `json:"safety"`
	Ledger Ledger          `json:"ledger"`
	// Errors are failures of attest or of a provider: they never count
	// against the artifact.
	Errors []string `json:"errors,omitempty"`
	// Skipped says why nothing ran (a veto, a missing harness).
	Skipped string `json:"skipped,omitempty"`
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

// Environment says where and with what a behavioral run ran (report
// environment).
type Environment struct {
	Sandbox *SandboxRecord         `json:"sandbox"`
	Models  map[string]ModelRecord `json:"models"`
}

// SandboxRecord names the sandbox.
type SandboxRecord struct {
	Kind    string `json:"kind"`
	Version string `json:"version"`
	// Ledger says how files and processes were recorded.
	Ledger string `json:"ledger"`
	Limits Limits `json:"limits"`
}

// ModelRecord is one role's model, parameters and token use.
type ModelRecord struct {
	Provider     string  `json:"provider"`
	Model        string  `json:"model"`
	Temperature  float64 `json:"temperature"`
	MaxTokens    int     `json:"maxTokens"`
	InputTokens  int     `json:"inputTokens"`
	OutputTokens int     `json:"outputTokens"`
	Calls        int     `json:"calls"`
}

// Outcome is what the behavioral companion hands back to attest.
type Outcome struct {
	Observation *Observation `json:"behavior"`
	Environment *Environment `json:"environment"`
}

// Transcript is one run as stored: enough to re-judge it without running
// anything again.
type Transcript struct {
	Schema string `json:"schema"`
	Kind   string `json:"kind"`
	Case   string `json:"case"`
	Repeat int    `json:"repeat"`
	Prompt string `json:"prompt"`
	// Documentation is what the driver was given, and the judge shown as
	// untrusted.
	Documentation string          `json:"documentation"`
	Driver        ModelRecord     `json:"driver"`
	Turns         []Turn          `json:"turns"`
	Ledger        *Ledger         `json:"ledger"`
	Sandbox       json.RawMessage `json:"sandbox,omitempty"`
}

// TranscriptSchema names the transcript format.
const TranscriptSchema = "https://github.com/metahub-ai/attest/transcript/v1"

// Turn is one message of the conversation.
type Turn struct {
	Role  string     `json:"role"`
	Parts []TurnPart `json:"parts"`
}

// TurnPart is text, a tool call or a tool's result.
type TurnPart struct {
	Type    string          `json:"type"`
	Text    string          `json:"text,omitempty"`
	ID      string          `json:"id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	IsError bool            `json:"isError,omitempty"`
}

// Canonical is the transcript's RFC 8785 canonical JSON and its sha256.
func (t *Transcript) Canonical() ([]byte, string, error) {
	raw, err := json.Marshal(t)
	if err != nil {
		return nil, "", err
	}
	c, err := jcs.Transform(raw)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(c)
	return c, hex.EncodeToString(sum[:]), nil
}
