package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Consumer is a consumer's install policy (docs/POLICY.md): what a signed
// report must show before an artifact is installed.
type Consumer struct {
	// TrustedSigners are public key files (SPKI PEM); a signature by any
	// of them is trusted. Relative paths are relative to the policy file.
	TrustedSigners []string `json:"trustedSigners,omitempty"`
	// TrustedIdentities are keyless signers: a signature by a certificate
	// the trusted root's CA issued to any of them is trusted.
	TrustedIdentities []Identity `json:"trustedIdentities,omitempty"`
	// TrustedRoot is a Sigstore trusted_root.json (CAs, logs, timestamp
	// authorities), relative to the policy file; keyless signers and log
	// entries are checked against it.
	TrustedRoot string `json:"trustedRoot,omitempty"`
	// MinOverall is the least overall score; a report with no overall, or
	// whose score could not be confirmed, meets no minimum.
	MinOverall *float64 `json:"minOverall,omitempty"`
	// MinAxis is the least score per axis.
	MinAxis map[checks.Axis]float64 `json:"minAxis,omitempty"`
	// MustPass lists checks whose result must be pass (a waived result is
	// not a pass).
	MustPass []string `json:"mustPass,omitempty"`
	// MaxAgeDays bounds how old the report may be.
	MaxAgeDays *float64 `json:"maxAgeDays,omitempty"`
	// RequireLog requires a transparency log entry.
	RequireLog bool `json:"requireLog,omitempty"`
	// A report's pass verdict counts a waived or disabled blocking check
	// as no block; a consumer policy does not. AcceptWaived and
	// AcceptDisabled name the blocking checks it lets through waived or
	// disabled by the publisher, AcceptNotRerun those it lets through
	// when --artifact is given but this verifier could not re-run them
	// (another check version or analysis model). An unconfirmed result
	// fails verification whatever the policy says.
	AcceptWaived   []string `json:"acceptWaived,omitempty"`
	AcceptDisabled []string `json:"acceptDisabled,omitempty"`
	AcceptNotRerun []string `json:"acceptNotRerun,omitempty"`
	// AllowedSuites and AllowedFormulas, when set, list what is accepted:
	// "attest-default" or "attest-default@1.1.0"; "attest-default@1".
	AllowedSuites   []string `json:"allowedSuites,omitempty"`
	AllowedFormulas []string `json:"allowedFormulas,omitempty"`
}

// Identity is a keyless signer: the subject of its certificate (an email,
// a workflow URI) and the OIDC issuer that vouched for it. Subject or
// SubjectRegexp, not both; Issuer always.
type Identity struct {
	Subject       string `json:"subject,omitempty"`
	SubjectRegexp string `json:"subjectRegexp,omitempty"`
	Issuer        string `json:"issuer"`
}

// String names the identity as a reason reads it.
func (i Identity) String() string {
	s := i.Subject
	if s == "" {
		s = "~" + i.SubjectRegexp
	}
	return s + " (issuer " + i.Issuer + ")"
}

// Check says what is wrong with an identity.
func (i Identity) Check() error {
	switch {
	case i.Issuer == "":
		return errors.New("an identity needs its OIDC issuer (for GitHub Actions: https://token.actions.githubusercontent.com)")
	case (i.Subject == "") == (i.SubjectRegexp == ""):
		return fmt.Errorf("identity with issuer %s: give subject or subjectRegexp, one of them", i.Issuer)
	case i.SubjectRegexp != "":
		if _, err := regexp.Compile(i.SubjectRegexp); err != nil {
			return fmt.Errorf("identity subjectRegexp: %w", err)
		}
	}
	return nil
}

// MaxPolicyBytes bounds a policy file.
const MaxPolicyBytes = 1 << 20

// ReadConsumer reads a policy file, refusing unknown fields so that a typo
// never loosens a gate silently.
func ReadConsumer(path string) (*Consumer, error) {
	data, err := resolve.ReadFileMax(path, MaxPolicyBytes)
	if err != nil {
		return nil, err
	}
	return ParseConsumer(data)
}

// ParseConsumer parses a policy.
func ParseConsumer(data []byte) (*Consumer, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Consumer
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	for a, v := range c.MinAxis {
		if !validAxis(a) {
			return nil, fmt.Errorf("policy: minAxis names %q, not an axis (integrity, safety, care, behavior)", a)
		}
		if v < 0 || v > 100 {
			return nil, fmt.Errorf("policy: minAxis.%s %v is outside 0..100", a, v)
		}
	}
	for _, id := range c.TrustedIdentities {
		if err := id.Check(); err != nil {
			return nil, fmt.Errorf("policy: trustedIdentities: %w", err)
		}
	}
	if len(c.TrustedIdentities) > 0 && c.TrustedRoot == "" {
		return nil, errors.New("policy: trustedIdentities need a trustedRoot (the Sigstore trusted_root.json whose CA certifies them)")
	}
	if c.MinOverall != nil && (*c.MinOverall < 0 || *c.MinOverall > 100) {
		return nil, fmt.Errorf("policy: minOverall %v is outside 0..100", *c.MinOverall)
	}
	return &c, nil
}

func validAxis(a checks.Axis) bool {
	for _, x := range checks.Axes {
		if x == a {
			return true
		}
	}
	return false
}
