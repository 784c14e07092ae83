package attest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/checks/surface"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/remote"
)

// ToolName names the evaluator in reports.
const ToolName = "attest"

// Options configures Evaluate. The zero value evaluates offline with the
// default suite and no policy.
type Options struct {
	// Kind overrides kind detection.
	Kind      resolve.Kind
	Inventory resolve.Options
	Policy    policy.Config
	// Grants defaults to checks.DefaultGrants (offline, clock only).
	Grants *checks.Grants
	// Catalog defaults to the attest-default suite.
	Catalog      *checks.Catalog
	ToolVersion  string
	CheckTimeout time.Duration
	// Now defaults to time.Now; tests inject a fixed clock.
	Now      func() time.Time
	Logger   *slog.Logger
	Progress func(done, total int, id string)
	// Surface is a captured MCP surface (attest run --surface) the checks
	// judge instead of the one discovered from source.
	Surface *mcp.Surface
	// Source overrides the subject's recorded provenance, for a target
	// staged by the caller (a snapshot file evaluated on its own).
	Source *resolve.Provenance
	// Lock is an approved surface to compare the current one with; the
	// differences are recorded in surface.drift.
	Lock *mcp.Lock
	// Notef, when set, receives notes for the person running: what was
	// found and deliberately not used.
	Notef func(format string, a ...any)
	// Cache, when set, reuses a report whose every input is unchanged and
	// stores new ones (a run with a captured surface or a lock file is
	// never cached).
	Cache *Cache
	// Parallel bounds the checks run at once (0: one per CPU); a batch
	// runs artifacts side by side with one each.
	Parallel int
	// Cached is set when the report came from the cache.
	Cached *bool
	// Behave, when set, runs the behavioral tier on a copy of exactly the
	// evaluated files (dir) after the static checks, unless an unwaived
	// blocking static safety failure vetoes it.
	Behave func(ctx context.Context, subj *resolve.Subject, dir string) (*behave.Outcome, error)
	// ForceBehavioral runs the behavioral tier despite a static veto.
	ForceBehavioral bool
}

// Evaluate resolves a target, runs the suite's checks, applies the policy
// and scores the result.
func Evaluate(ctx context.Context, target string, opts Options) (*Report, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if err := opts.Policy.Validate(); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	cat := opts.Catalog
	if cat == nil {
		var err error
		if cat, err = suite.Default(); err != nil {
			return nil, err
		}
	}
	grants := checks.DefaultGrants
	if opts.Grants != nil {
		grants = *opts.Grants
	}
	if opts.Behave != nil {
		grants.Sandbox, grants.Model = true, true
	}
	cache := opts.Cache
	if opts.Surface != nil || opts.Lock != nil || opts.Source != nil || opts.Behave != nil {
		cache = nil
	}
	// A local tree whose metadata is unchanged has the digest it had.
	var fp string
	if cache != nil && isDir(target) {
		if f, err := fingerprint(target); err == nil {
			fp = f
			if digest, ok := cache.knownDigest(target, fp); ok {
				if r, ok := cache.report(reportKey(digest, opts.Kind, cat, grants, opts.Policy, opts.ToolVersion), now()); ok {
					markCached(opts)
					return r, nil
				}
			}
		}
	}
	started := now().UTC()
	lo := resolve.LoadOptions{Inventory: opts.Inventory, Kind: opts.Kind, Remote: remote.Fetch}
	if opts.Behave != nil {
		tmp, remove, err := resolve.TempDir("attest-behave-")
		if err != nil {
			return nil, err
		}
		defer remove()
		os.Chmod(tmp, 0o755)
		lo.CopyTo = filepath.Join(tmp, "artifact")
	}
	subj, err := resolve.Load(ctx, target, lo)
	if err != nil {
		return nil, err
	}
	var key string
	if cache != nil {
		key = reportKey(subj.Inventory.Digest(), opts.Kind, cat, grants, opts.Policy, opts.ToolVersion)
		if r, ok := cache.report(key, now()); ok {
			if fp != "" {
				cache.rememberDigest(target, fp, subj.Inventory.Digest(), 0)
			}
			markCached(opts)
			return r, nil
		}
	}
	if opts.Source != nil {
		subj.Source = *opts.Source
	}
	if opts.Notef != nil && subj.Source.Type != "dir" && subj.Source.Type != resolve.SourceSnapshot && subj.Inventory.Exists(policy.ConfigName) {
		// A fetched artifact does not get to set the policy it is judged by.
		opts.Notef("the fetched artifact's own %s was ignored: its waivers and settings never apply to a run on it (pass --config to apply a policy)", policy.ConfigName)
	}
	if opts.Surface != nil {
		surface.Attach(subj, opts.Surface)
	}
	ro := checks.RunOptions{
		Grants: grants, StartedAt: started, Timeout: opts.CheckTimeout, Logger: opts.Logger, Progress: opts.Progress,
		Parallel: opts.Parallel,
	}
	var behaved *behave.Outcome
	if opts.Behave != nil {
		ro.Select = func(c *checks.Check) bool { return !behavioral(c) }
	}
	outcomes := checks.Run(ctx, subj, cat, ro)
	if opts.Behave != nil {
		if veto := vetoOf(outcomes, opts.Policy, started); veto != "" && !opts.ForceBehavioral {
			behaved = &behave.Outcome{Observation: &behave.Observation{Kind: string(subj.Kind), Skipped: veto,
				Cases: []behave.Case{}, Probes: []behave.Probe{}, Safety: []behave.SafetyFinding{}}}
		} else if behaved, err = opts.Behave(ctx, subj, lo.CopyTo); err != nil {
			return nil, err
		}
		ro.Select = behavioral
		ro.Behavior = behaved.Observation
		outcomes = append(outcomes, checks.Run(ctx, subj, cat, ro)...)
		slices.SortFunc(outcomes, func(a, b checks.Outcome) int { return strings.Compare(a.Check.ID, b.Check.ID) })
	}
	// Checks cut short by a cancelled run (a signal) report nothing about
	// the artifact: no report is made of them.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("the evaluation was interrupted: %w", err)
	}
	results := policy.Apply(outcomes, opts.Policy, started)
	score, err := policy.Compute(results, cat, opts.Policy.MinScore)
	if err != nil {
		return nil, err
	}
	r, err := assemble(subj, cat, grants, opts, results, score, started, now().UTC())
	if err == nil && behaved != nil {
		r.Behavior = behaved.Observation
		if behaved.Environment != nil {
			r.Environment = *behaved.Environment
		}
	}
	if err == nil && cache != nil && cacheable(r) {
		// A cache that cannot be written costs the next run time, nothing else.
		if cache.putReport(key, r, opts.Policy, now()) == nil && fp != "" {
			cache.rememberDigest(target, fp, r.Subject.Digest.SHA256, max(1, time.Since(started).Milliseconds()))
		}
	}
	return r, err
}

// cacheable: a report with a check that could not run (a timeout, a
// network outage) is not kept, so the next run tries again.
func cacheable(r *Report) bool {
	for _, res := range r.Results {
		if res.Status == checks.Error {
			return false
		}
	}
	return true
}

// behavioral checks need a sandbox and a model.
func behavioral(c *checks.Check) bool {
	return slices.Contains(c.Needs, checks.Sandbox)
}

// vetoOf names the unwaived blocking safety failure that keeps the
// artifact out of the sandbox, if any.
func vetoOf(outcomes []checks.Outcome, pol policy.Config, now time.Time) string {
	for _, r := range policy.Apply(outcomes, pol, now) {
		if r.Blocking && r.Axis == checks.Safety && r.Status == checks.Fail && r.Waiver == nil {
			return "vetoed: the blocking safety check " + r.Check + " failed statically (--behavioral runs it anyway)"
		}
	}
	return ""
}

func markCached(opts Options) {
	if opts.Cached != nil {
		*opts.Cached = true
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// unscanned are the files left out of content scanning by a limit, and the
// programs and documents the analysis could not read as text.
func unscanned(subj *resolve.Subject) []resolve.Skip {
	out := slices.Clone(subj.Inventory.Unscanned)
	for _, u := range analysis.Unread(subj) {
		if !slices.ContainsFunc(out, func(s resolve.Skip) bool { return s.Path == u.Path }) {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b resolve.Skip) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func assemble(subj *resolve.Subject, cat *checks.Catalog, grants checks.Grants, opts Options,
	results []policy.Result, score policy.Score, started, finished time.Time) (*Report, error) {
	inv := subj.Inventory
	dirHash, err := inv.DirHash()
	if err != nil {
		dirHash = "" // informational only; a newline in a file name has none
	}
	version := opts.ToolVersion
	if version == "" {
		version = "devel"
	}
	pol := Policy{Settings: opts.Policy.Settings, MinScore: opts.Policy.MinScore, Disabled: opts.Policy.Disabled, Waivers: opts.Policy.Waivers,
		NotApplied: policy.NotAppliedWaivers(results, opts.Policy.Waivers, started)}
	if opts.Policy.Source != "" {
		src := opts.Policy.Source
		pol.Source = &src
	}
	if pol.Settings == nil {
		pol.Settings = map[string]any{}
	}
	if pol.Disabled == nil {
		pol.Disabled = []string{}
	}
	if pol.Waivers == nil {
		pol.Waivers = []policy.Waiver{}
	}
	r := &Report{
		Schema:        SchemaURI,
		SchemaVersion: SchemaVersion,
		Tool:          Tool{Name: ToolName, Version: version},
		Subject: Subject{
			Kind: subj.Kind, Name: subj.Name, Version: subjectVersion(subj),
			Digest: Digest{SHA256: inv.Digest(), DirHash: dirHash, GitTree: subj.GitTree, GitCommit: gitCommit(subj)},
			Source: subj.Source, Manifest: manifestPath(subj), KindReason: subj.KindReason, DeclaredName: subj.DeclaredName,
		},
		Suite:  Suite{ID: cat.ID, Version: cat.Version, CatalogDigest: cat.Digest()},
		Grants: grants,
		Policy: pol,
		Inventory: Inventory{
			Files: len(inv.Files), Symlinks: len(inv.Symlinks), Bytes: inv.Bytes,
			Skipped: nonNil(inv.Skipped), Unscanned: nonNil(unscanned(subj)),
		},
		Results:    results,
		Score:      score,
		StartedAt:  started.Format(time.RFC3339Nano),
		FinishedAt: finished.Format(time.RFC3339Nano),
	}
	if subj.Kind == resolve.KindMCP || opts.Surface != nil {
		r.Surface = surfaceRecord(surface.Of(subj))
		if opts.Lock != nil {
			drift, err := mcp.Compare(opts.Lock, r.Surface.Lock())
			if err != nil {
				r.Surface.DriftNote = err.Error()
			} else {
				r.Surface.Drift = drift
			}
		}
	}
	return r, nil
}

// surfaceRecord digests the entries a server serves: registrations in test
// files are left out.
func surfaceRecord(s *mcp.Surface) *Surface {
	rec := &Surface{Origin: s.Origin, Tools: []SurfaceItem{}, Prompts: []SurfaceItem{}, Resources: []SurfaceItem{}}
	for _, t := range s.Tools {
		if !surface.IsTest(t.Site.File) {
			rec.Tools = append(rec.Tools, SurfaceItem{Name: t.Name, DescriptionSHA256: mcp.SHA256Text(t.Description), SchemaSHA256: mcp.SchemaSHA256(t.InputSchema)})
		}
	}
	for _, p := range s.Prompts {
		if !surface.IsTest(p.Site.File) {
			rec.Prompts = append(rec.Prompts, SurfaceItem{Name: p.Name, DescriptionSHA256: mcp.SHA256Text(p.Description)})
		}
	}
	for _, x := range s.Resources {
		if !surface.IsTest(x.Site.File) {
			name := x.Name
			if name == "" {
				name = x.URI + x.URITemplate
			}
			rec.Resources = append(rec.Resources, SurfaceItem{Name: name, DescriptionSHA256: mcp.SHA256Text(x.Description)})
		}
	}
	return rec
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// subjectVersion is the version the artifact declares for its kind.
func subjectVersion(s *resolve.Subject) *string {
	m := s.Manifests
	var v string
	switch s.Kind {
	case resolve.KindSkill:
		if m.Skill.Ok() {
			v, _, _ = m.Skill.V.String("version")
			if k := m.Skill.V.Get("metadata"); v == "" && k != nil {
				for i := 0; i+1 < len(k.Value.Content); i += 2 {
					if k.Value.Content[i].Value == "version" {
						v = k.Value.Content[i+1].Value
					}
				}
			}
		}
	case resolve.KindPlugin:
		if m.Plugin.Ok() && m.Plugin.V.Version != nil {
			v = m.Plugin.V.Version.Value
		}
	case resolve.KindAgent:
		if m.AgentJSON.Ok() && m.AgentJSON.V.Version != nil {
			v = m.AgentJSON.V.Version.Value
		}
	case resolve.KindMCP:
		switch {
		case m.Package.Ok() && m.Package.V.Version != nil:
			v = m.Package.V.Version.Value
		case m.Pyproject.Ok() && m.Pyproject.V.Version != nil:
			v = m.Pyproject.V.Version.Value
		case m.Cargo.Ok() && m.Cargo.V.Version != nil:
			v = m.Cargo.V.Version.Value
		case m.ServerJSON.Ok() && m.ServerJSON.V.Version != nil:
			v = m.ServerJSON.V.Version.Value
		}
	}
	if v == "" {
		return nil
	}
	return &v
}

// gitCommit is the resolved commit of a target fetched from git (directly
// or through a registry), informational beside the tree digest.
func gitCommit(s *resolve.Subject) string {
	if c := s.Source.Commit; c != nil && (s.Source.Type == resolve.TypeGit || s.Source.Type == resolve.TypeRegistry) {
		return *c
	}
	return ""
}

// manifestPath is the manifest the subject's kind was read from, or "".
func manifestPath(s *resolve.Subject) string {
	m := s.Manifests
	if m == nil {
		return ""
	}
	var paths []string
	switch s.Kind {
	case resolve.KindSkill:
		if m.Skill != nil {
			paths = append(paths, m.Skill.Path)
		}
	case resolve.KindPlugin:
		if m.Plugin != nil {
			paths = append(paths, m.Plugin.Path)
		}
	case resolve.KindAgent:
		if m.AgentJSON != nil {
			paths = append(paths, m.AgentJSON.Path)
		}
		for _, a := range m.Agents {
			paths = append(paths, a.Path)
		}
	case resolve.KindMCP:
		if m.ServerJSON != nil {
			paths = append(paths, m.ServerJSON.Path)
		}
		if m.Package != nil {
			paths = append(paths, m.Package.Path)
		}
		if m.Pyproject != nil {
			paths = append(paths, m.Pyproject.Path)
		}
		if m.GoMod != nil {
			paths = append(paths, m.GoMod.Path)
		}
		if m.Cargo != nil {
			paths = append(paths, m.Cargo.Path)
		}
		for _, r := range m.Requirements {
			paths = append(paths, r.Path)
		}
	}
	for _, p := range paths {
		if p != "" {
			return p
		}
	}
	return ""
}
