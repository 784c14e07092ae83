// Package osvwire is what the check hands osvscan and what it answers:
// plain types, also written as JSON by the osvscan tests.
package osvwire

import (
	"time"

	"github.com/metahub-ai/attest/checks/internal/ledger"
)

// File is a lockfile or manifest handed to the extractors.
type File struct {
	Path    string `json:"path"`
	Content []byte `json:"content"`
}

// Request is one lookup.
type Request struct {
	Files []File `json:"files"`
	// Packages are exact pins read from manifests that no lockfile
	// resolves; they are queried as they are.
	Packages []Package `json:"packages,omitempty"`
	// BaseURL replaces OSV's API (a mirror, or a fake in tests); its host
	// is added to the allowlist. It must be HTTPS.
	BaseURL string `json:"baseURL,omitempty"`
	// Timeout bounds the whole scan.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// Package is one resolved dependency.
type Package struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	File      string `json:"file"`
	Line      int    `json:"line,omitempty"`
	Dev       bool   `json:"dev,omitempty"`
}

// Vuln is one advisory affecting a package.
type Vuln struct {
	ID       string   `json:"id"`
	Aliases  []string `json:"aliases,omitempty"`
	Summary  string   `json:"summary,omitempty"`
	Package  int      `json:"package"`  // index into Response.Packages
	Severity string   `json:"severity"` // CRITICAL, HIGH, MODERATE, LOW or UNKNOWN
	Score    float64  `json:"score,omitempty"`
	Vector   string   `json:"vector,omitempty"`
	Malware  bool     `json:"malware,omitempty"`
	Fixed    []string `json:"fixed,omitempty"`
}

// Response is what the helper writes on standard output.
type Response struct {
	Packages   []Package         `json:"packages"`
	Unresolved []Package         `json:"unresolved,omitempty"` // ranges with no resolved version
	Vulns      []Vuln            `json:"vulns"`
	Exchanges  []ledger.Exchange `json:"exchanges"`
	Notes      []string          `json:"notes,omitempty"` // files that could not be read
	// Truncated says a limit cut the scan short.
	Truncated string `json:"truncated,omitempty"`
}
