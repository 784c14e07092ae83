package attest

import (
	_ "embed"
	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/mcp"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
)

// SchemaVersion is the report schema's version; PredicateType names it in
// an in-toto Statement.
const (
	SchemaVersion = "1"
	// SchemaURI is where the report schema of version 1 is published (the
	// file attest/report.schema.json, which only grows by optional fields).
	SchemaURI     = "https://raw.githubusercontent.com/metahub-ai/attest/main/attest/report.schema.json"
	PredicateType = "https://github.com/metahub-ai/attest/report/v1"
	// PayloadType is the DSSE payload type of an in-toto Statement.
	PayloadType = "application/vnd.in-toto+json"
)

// Schema is the JSON Schema (draft 2020-12) of a report.
//
//go:embed report.schema.json
var Schema []byte

// Report is the canonical result of one evaluation.
type Report struct {
	// Schema is the URI of the report's JSON Schema (SchemaURI), for
	// editors and validators.
	Schema        string              `json:"$schema,omitempty"`
	SchemaVersion string              `json:"schemaVersion"`
	Tool          Tool                `json:"tool"`
	Subject       Subject             `json:"subject"`
	Suite         Suite               `json:"suite"`
	Grants        checks.Grants       `json:"grants"`
	Policy        Policy              `json:"policy"`
	Inventory     Inventory           `json:"inventory"`
	Results       []policy.Result     `json:"results"`
	Score         policy.Score        `json:"score"`
	Surface       *Surface            `json:"surface"`
	Behavior      *behave.Observation `json:"behavior"`
	Environment   Environment         `json:"environment"`
	StartedAt     string              `json:"startedAt"`
	FinishedAt    string              `json:"finishedAt"`
}

// Tool names the evaluator.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Subject is what was evaluated.
type Subject struct {
	Kind    resolve.Kind       `json:"kind"`
	Name    string             `json:"name"`
	Version *string            `json:"version"`
	Digest  Digest             `json:"digest"`
	Source  resolve.Provenance `json:"source"`
	// Manifest is the path, relative to the artifact's root, of the
	// manifest its kind was read from (SKILL.md, package.json, ...), so a
	// finding about the whole artifact has a file to point at.
	Manifest string `json:"manifest,omitempty"`
	// KindReason says why the subject is of its kind; with no manifest,
	// the closest kind it was judged as.
	KindReason string `json:"kindReason,omitempty"`
	// DeclaredName is the name the artifact's manifest declares, empty
	// when Name is its directory's. It stays out of the report (Name says
	// it); verification compares a signed name with it.
	DeclaredName string `json:"-"`
}

// Digest holds the subject's digests. Only SHA256, the tree digest of
// docs/DIGEST.md, identifies the subject; the others are informational.
type Digest struct {
	SHA256    string `json:"sha256"`
	DirHash   string `json:"dirHash,omitempty"`
	GitCommit string `json:"gitCommit,omitempty"`
	GitTree   string `json:"gitTree,omitempty"`
}

// Suite names the check suite and pins its catalog.
type Suite struct {
	ID            string `json:"id"`
	Version       string `json:"version"`
	CatalogDigest string `json:"catalogDigest"`
}

// Policy records the policy the run applied.
type Policy struct {
	Source   *string         `json:"source"`
	Settings map[string]any  `json:"settings"`
	MinScore *float64        `json:"minScore"`
	Disabled []string        `json:"disabled"`
	Waivers  []policy.Waiver `json:"waivers"`
	// NotApplied are waivers that named a finding's check but did not
	// waive it (expired, or paths that leave files uncovered).
	NotApplied []policy.NotApplied `json:"notApplied,omitempty"`
}

// Inventory summarises what was evaluated and what was left out.
type Inventory struct {
	Files    int            `json:"files"`
	Symlinks int            `json:"symlinks"`
	Bytes    int64          `json:"bytes"`
	Skipped  []resolve.Skip `json:"skipped"`
	// Unscanned files are in the subject (digested) but were not
	// content-scanned because a limit kept them out, or are programs or
	// documents that could not be read as text.
	Unscanned []resolve.Skip `json:"unscanned"`
}

// Surface is an MCP server's tool surface.
type Surface struct {
	Origin    string        `json:"origin"` // declared | observed | snapshot
	Tools     []SurfaceItem `json:"tools"`
	Prompts   []SurfaceItem `json:"prompts"`
	Resources []SurfaceItem `json:"resources"`
	// Drift lists the differences from the lock file, when one was
	// compared; DriftNote says why none could be.
	Drift     []mcp.Drift `json:"drift,omitempty"`
	DriftNote string      `json:"driftNote,omitempty"`
}

// Lock is the surface record as a lock file.
func (s *Surface) Lock() *mcp.Lock {
	var es []mcp.LockEntry
	for kind, items := range map[string][]SurfaceItem{"tool": s.Tools, "prompt": s.Prompts, "resource": s.Resources} {
		for _, it := range items {
			es = append(es, mcp.LockEntry{Kind: kind, Name: it.Name, DescriptionSHA256: it.DescriptionSHA256, SchemaSHA256: it.SchemaSHA256})
		}
	}
	return mcp.NewLock(s.Origin, es)
}

// DriftNeedsReview reports whether the surface drifted from its lock in a
// way a person must approve.
func (r *Report) DriftNeedsReview() bool {
	return r.Surface != nil && mcp.NeedsReview(r.Surface.Drift)
}

// SurfaceItem is one tool, prompt or resource, by hash.
type SurfaceItem struct {
	Name              string `json:"name"`
	DescriptionSHA256 string `json:"descriptionSha256"`
	SchemaSHA256      string `json:"schemaSha256,omitempty"`
}

// Environment records the sandbox and the model of each role of a
// behavioral run; both null when nothing ran.
type Environment = behave.Environment
