package resolve

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Subject is an artifact ready to be evaluated.
type Subject struct {
	Kind Kind
	// KindReason says how the kind was decided.
	KindReason string
	Name       string
	// DeclaredName is the name the artifact's manifest declares for its
	// kind; empty when Name is only the directory's.
	DeclaredName string
	// DirName is the artifact directory's own name: the root's base name,
	// or the last segment of the provenance path.
	DirName   string
	Source    Provenance
	Inventory *Inventory
	Manifests *Manifests
	// Workspace is the enclosing workspace root of a local directory that
	// is one of its members, read-only context outside the subject; nil
	// otherwise.
	Workspace *Workspace
	// CommitTime is the time of the resolved commit when the target came
	// from git; zero otherwise.
	CommitTime time.Time
	// GitTree is the tree hash of the evaluated directory at that commit.
	GitTree string
	// clientConfig is set when the subject is an MCP client configuration
	// with no server beside it.
	clientConfig bool

	memo sync.Map // key → *memoEntry
}

type memoEntry struct {
	claimed atomic.Bool
	done    chan struct{} // closed once v is set
	v       any
}

func (s *Subject) entry(key any) *memoEntry {
	if e, ok := s.memo.Load(key); ok {
		return e.(*memoEntry)
	}
	e, _ := s.memo.LoadOrStore(key, &memoEntry{done: make(chan struct{})})
	return e.(*memoEntry)
}

// compute runs f for e unless another caller has claimed it, and reports
// whether it ran. If f panics, v stays nil and the waiters go on.
func (e *memoEntry) compute(f func() any) bool {
	if !e.claimed.CompareAndSwap(false, true) {
		return false
	}
	defer close(e.done)
	e.v = f()
	return true
}

// Memo computes a value once per subject and key, so that checks share
// work such as parsing a file, whichever of them runs first; a caller that
// finds the work under way waits for it.
func (s *Subject) Memo(key any, compute func() any) any {
	e := s.entry(key)
	if !e.compute(compute) {
		<-e.done
	}
	return e.v
}

// Prefetch computes key's value if nobody has started it, and returns at
// once otherwise. Checks that read the same files call it for every file
// before reading any: two checks that arrive together then split the
// files between them instead of one waiting on each file the other parses.
func (s *Subject) Prefetch(key any, compute func() any) {
	s.entry(key).compute(compute)
}

// Form is the shape the subject takes: a captured surface when its source
// is a snapshot, a client configuration when it is an MCP artifact made of
// a client configuration and no server, a package otherwise.
func (s *Subject) Form() Form {
	switch {
	case s.Source.Type == SourceSnapshot:
		return FormSurface
	case s.Kind == KindMCP && s.clientConfig:
		return FormClientConfig
	}
	return FormPackage
}

// Text is f's content as a string without a copy: a subject's bytes are
// never written after Load (checks only read them), so the string can
// share them, and an artifact's text is held in memory once, not once per
// reader.
func (s *Subject) Text(f *File) string {
	return unsafe.String(unsafe.SliceData(f.Content), len(f.Content))
}

// LoadOptions configures Load.
type LoadOptions struct {
	Inventory Options
	// Kind overrides detection when set.
	Kind Kind
	// CopyTo, when set, receives a copy of exactly the subject's files
	// (each checked against its digest as copied), for a run in a sandbox:
	// what runs is what was evaluated.
	CopyTo string
	// Remote fetches a remote target (resolve/remote.Fetch); without it a
	// remote target is ErrNoRemote.
	Remote Remote
}

// Load resolves, inventories and detects a target in one step. The
// snapshot is closed before Load returns: every byte a check may read is
// already in the inventory.
func Load(ctx context.Context, target string, opts LoadOptions) (*Subject, error) {
	t, err := Parse(target)
	if err != nil {
		return nil, err
	}
	snap, err := FetchWith(ctx, t, opts.Remote)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	inv, err := Take(ctx, snap, opts.Inventory)
	if err != nil {
		return nil, fmt.Errorf("taking the inventory of %q: %w", target, err)
	}
	if opts.CopyTo != "" {
		if err := copySubject(snap, inv, opts.CopyTo); err != nil {
			return nil, fmt.Errorf("copying %q for the sandbox: %w", target, err)
		}
	}
	m := LoadManifests(inv)
	s := &Subject{Source: snap.Provenance, Inventory: inv, Manifests: m}
	switch {
	case snap.Kind != "" && opts.Kind != "" && opts.Kind != snap.Kind:
		return nil, fmt.Errorf("target %q: the registry lists it as %s, not %s; drop --kind", target, snap.Kind, opts.Kind)
	case snap.Kind != "":
		s.Kind, s.KindReason = snap.Kind, "the registry's entry"
	case opts.Kind != "":
		s.Kind, s.KindReason = opts.Kind, "--kind"
	default:
		s.Kind, s.KindReason, err = Detect(inv, m)
		if err != nil {
			return nil, err
		}
	}
	s.clientConfig = IsClientConfig(inv, m)
	s.DirName = filepath.Base(snap.Dir)
	if snap.DirName != "" {
		s.DirName = snap.DirName
	} else if p := snap.Provenance.Path; p != nil && *p != "" {
		s.DirName = path.Base(*p)
	}
	s.CommitTime, s.GitTree = snap.CommitTime, snap.GitTree
	s.DeclaredName = declaredName(s)
	s.Name = s.DeclaredName
	if s.Name == "" {
		s.Name = s.DirName
	}
	if snap.Provenance.Type == "dir" {
		s.Workspace = FindWorkspace(snap.Dir)
	}
	return s, nil
}

// declaredName is the name the artifact declares for its kind, empty
// when it declares none (the subject is then named after its directory).
func declaredName(s *Subject) string {
	m := s.Manifests
	var candidates []string
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" {
			candidates = append(candidates, v)
		}
	}
	switch s.Kind {
	case KindSkill:
		if m.Skill.Ok() {
			v, _, _ := m.Skill.V.String("name")
			add(v)
		}
	case KindPlugin:
		if m.Plugin.Ok() && m.Plugin.V.Name != nil {
			add(m.Plugin.V.Name.Value)
		}
	case KindAgent:
		if m.AgentJSON.Ok() && m.AgentJSON.V.Name != nil {
			add(m.AgentJSON.V.Name.Value)
		}
		for _, a := range m.Agents {
			if a.Ok() {
				v, _, _ := a.V.String("name")
				add(v)
			}
		}
	case KindMCP:
		if m.ServerJSON.Ok() && m.ServerJSON.V.Name != nil {
			add(m.ServerJSON.V.Name.Value)
		}
		if m.Package.Ok() && m.Package.V.Name != nil {
			add(m.Package.V.Name.Value)
		}
		if m.Pyproject.Ok() && m.Pyproject.V.Name != nil {
			add(m.Pyproject.V.Name.Value)
		}
		if m.Cargo.Ok() && m.Cargo.V.Name != nil {
			add(m.Cargo.V.Name.Value)
		}
		if m.GoMod.Ok() && m.GoMod.V.Module != nil {
			add(GoModuleName(m.GoMod.V.Module.Value))
		}
	}
	if len(candidates) > 0 {
		return candidates[0]
	}
	return ""
}

// GoModuleName is a module path's last element, skipping a /vN suffix.
func GoModuleName(mod string) string {
	base := path.Base(mod)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(mod))
	}
	return base
}
