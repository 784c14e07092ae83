package behave

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/metahub-ai/attest/checks/observed"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// The observation types live in checks/observed, which the behavioral
// checks read; these names keep the behave package's vocabulary.
type (
	Observation   = observed.Observation
	Case          = observed.Case
	CaseRun       = observed.CaseRun
	Probe         = observed.Probe
	SafetyFinding = observed.SafetyFinding
	Stats         = observed.Stats
	Ledger        = observed.Ledger
	NetEvent      = observed.NetEvent
	FileEvent     = observed.FileEvent
	ProcEvent     = observed.ProcEvent
	HookRun       = observed.HookRun
)

// Probe outcomes.
const (
	Demonstrated = observed.Demonstrated
	Resisted     = observed.Resisted
	Concern      = observed.Concern
	ProbeError   = observed.ProbeError
)

// Ledger bounds.
const (
	MaxNetEvents  = observed.MaxNetEvents
	MaxFileEvents = observed.MaxFileEvents
	MaxProcEvents = observed.MaxProcEvents
)

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
	// AllowHosts were reachable through the proxy.
	AllowHosts []string `json:"allowHosts"`
	Limits     Limits   `json:"limits"`
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
	c, err := jsoncanonicalizer.Transform(raw)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(c)
	return c, hex.EncodeToString(sum[:]), nil
}
