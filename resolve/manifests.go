package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/resolve/manifest"
)

// Parsed is a manifest file read from the inventory: its path, and either
// the parsed value or the error that stopped the parser.
type Parsed[T any] struct {
	Path string
	V    *T
	Err  error
}

// Ok reports whether the manifest was present and parsed.
func (p *Parsed[T]) Ok() bool { return p != nil && p.Err == nil && p.V != nil }

// Manifests are the artifact's manifests, each parsed once.
type Manifests struct {
	Skill        *Parsed[manifest.Frontmatter] // SKILL.md
	Package      *Parsed[manifest.PackageJSON]
	Pyproject    *Parsed[manifest.Pyproject]
	Requirements []*Parsed[manifest.Requirements] // requirements*.txt at the root
	GoMod        *Parsed[manifest.GoMod]
	Cargo        *Parsed[manifest.Cargo]
	Plugin       *Parsed[manifest.Plugin] // .claude-plugin/plugin.json, else plugin.json
	Hooks        []*Parsed[manifest.Hooks]
	AgentJSON    *Parsed[manifest.AgentJSON] // agent.json or .claude/agent.json
	MCPConfig    *Parsed[manifest.MCPConfig] // the first of MCPConfigPaths
	ServerJSON   *Parsed[manifest.ServerJSON]
	// Agents are the agent markdown files found by the locator: every .md
	// with frontmatter under agents/, subagents/ or .claude/agents/ at any
	// depth, and root .md files whose frontmatter has name and description.
	Agents []*Parsed[manifest.Frontmatter]
	// Settings are shipped .claude/settings*.json files.
	Settings []*Parsed[manifest.JSONDoc]
}

func parse[T any](inv *Inventory, p string, fn func([]byte) (*T, error)) *Parsed[T] {
	f, ok := inv.File(p)
	if !ok {
		return nil
	}
	if !f.Scanned {
		return &Parsed[T]{Path: p, Err: &manifest.LimitError{Limit: "manifest size in bytes", Max: manifest.MaxManifestBytes}}
	}
	v, err := fn(f.Content)
	return &Parsed[T]{Path: p, V: v, Err: err}
}

func first[T any](inv *Inventory, fn func([]byte) (*T, error), paths ...string) *Parsed[T] {
	for _, p := range paths {
		if r := parse(inv, p, fn); r != nil {
			return r
		}
	}
	return nil
}

// LoadManifests parses every manifest the inventory holds.
func LoadManifests(inv *Inventory) *Manifests {
	m := &Manifests{
		Skill:      parse(inv, "SKILL.md", manifest.ParseFrontmatter),
		Package:    parse(inv, "package.json", manifest.ParsePackageJSON),
		Pyproject:  parse(inv, "pyproject.toml", manifest.ParsePyproject),
		GoMod:      parse(inv, "go.mod", manifest.ParseGoMod),
		Cargo:      parse(inv, "Cargo.toml", manifest.ParseCargo),
		Plugin:     first(inv, manifest.ParsePlugin, ".claude-plugin/plugin.json", "plugin.json"),
		AgentJSON:  first(inv, manifest.ParseAgentJSON, "agent.json", ".claude/agent.json"),
		MCPConfig:  first(inv, manifest.ParseMCPConfig, MCPConfigPaths...),
		ServerJSON: parse(inv, "server.json", manifest.ParseServerJSON),
	}
	for i := range inv.Files {
		p := inv.Files[i].Path
		dir, base := path.Split(p)
		switch {
		case dir == "" && strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
			m.Requirements = append(m.Requirements, parse(inv, p, manifest.ParseRequirements))
		case base == "hooks.json" && (dir == "hooks/" || dir == ""):
			m.Hooks = append(m.Hooks, parse(inv, p, manifest.ParseHooks))
		case dir == ".claude/" && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"):
			m.Settings = append(m.Settings, parse(inv, p, manifest.ParseJSON))
		case strings.HasSuffix(base, ".md"):
			if a := agentFile(inv, p, dir); a != nil {
				m.Agents = append(m.Agents, a)
			}
		}
	}
	return m
}

// agentFile applies the agent locator to one markdown file.
func agentFile(inv *Inventory, p, dir string) *Parsed[manifest.Frontmatter] {
	inAgentDir := false
	for _, seg := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		if seg == "agents" || seg == "subagents" {
			inAgentDir = true
		}
	}
	if !inAgentDir && dir != "" {
		return nil
	}
	f, ok := inv.File(p)
	if !ok || !f.Scanned || !hasFrontmatterFence(f.Content) {
		return nil
	}
	r := parse(inv, p, manifest.ParseFrontmatter)
	if dir == "" {
		// A root markdown file is an agent only when it says so.
		if !r.Ok() || r.V.Get("name") == nil || r.V.Get("description") == nil || isSkillOrDoc(path.Base(p)) {
			return nil
		}
	}
	return r
}

func isSkillOrDoc(base string) bool {
	switch strings.ToUpper(strings.TrimSuffix(base, ".md")) {
	case "SKILL", "README", "CHANGELOG", "CLAUDE", "AGENTS", "GEMINI", "CONTRIBUTING", "LICENSE", "SECURITY":
		return true
	}
	return false
}

func hasFrontmatterFence(b []byte) bool {
	b = []byte(strings.TrimPrefix(string(b[:min(len(b), 8)]), "\xef\xbb\xbf"))
	return strings.HasPrefix(string(b), "---\n") || strings.HasPrefix(string(b), "---\r\n") || string(b) == "---"
}

// ManifestState is one parsed manifest's outcome, for checks that look at
// every manifest alike.
type ManifestState struct {
	Path       string
	Err        error
	Duplicates []manifest.DuplicateKey
}

// All lists every manifest the artifact ships, sorted by path.
func (m *Manifests) All() []ManifestState {
	var out []ManifestState
	addJSON := func(path string, err error, doc *manifest.JSONDoc) {
		st := ManifestState{Path: path, Err: err}
		if doc != nil {
			st.Duplicates = doc.Duplicates
		}
		out = append(out, st)
	}
	addFront := func(p *Parsed[manifest.Frontmatter]) {
		st := ManifestState{Path: p.Path, Err: p.Err}
		if p.V != nil {
			st.Duplicates = p.V.Duplicates
		}
		out = append(out, st)
	}
	if m.Skill != nil {
		addFront(m.Skill)
	}
	for _, a := range m.Agents {
		addFront(a)
	}
	if p := m.Package; p != nil {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.PackageJSON) *manifest.JSONDoc { return v.Doc }))
	}
	if p := m.Plugin; p != nil {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.Plugin) *manifest.JSONDoc { return v.Doc }))
	}
	if p := m.AgentJSON; p != nil {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.AgentJSON) *manifest.JSONDoc { return v.Doc }))
	}
	if p := m.MCPConfig; p != nil {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.MCPConfig) *manifest.JSONDoc { return v.Doc }))
	}
	if p := m.ServerJSON; p != nil {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.ServerJSON) *manifest.JSONDoc { return v.Doc }))
	}
	for _, p := range m.Hooks {
		addJSON(p.Path, p.Err, docOf(p.V, func(v *manifest.Hooks) *manifest.JSONDoc { return v.Doc }))
	}
	for _, p := range m.Settings {
		addJSON(p.Path, p.Err, p.V)
	}
	for _, p := range []struct {
		path string
		err  error
		ok   bool
	}{
		{pathOf(m.Pyproject), errOf(m.Pyproject), m.Pyproject != nil},
		{pathOf(m.GoMod), errOf(m.GoMod), m.GoMod != nil},
		{pathOf(m.Cargo), errOf(m.Cargo), m.Cargo != nil},
	} {
		if p.ok {
			out = append(out, ManifestState{Path: p.path, Err: p.err})
		}
	}
	for _, r := range m.Requirements {
		out = append(out, ManifestState{Path: r.Path, Err: r.Err})
	}
	slices.SortFunc(out, func(a, b ManifestState) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func docOf[T any](v *T, f func(*T) *manifest.JSONDoc) *manifest.JSONDoc {
	if v == nil {
		return nil
	}
	return f(v)
}

func pathOf[T any](p *Parsed[T]) string {
	if p == nil {
		return ""
	}
	return p.Path
}

func errOf[T any](p *Parsed[T]) error {
	if p == nil {
		return nil
	}
	return p.Err
}

// MCPConfigPaths are where an artifact ships an MCP client configuration
// (Claude Code's .mcp.json, Cursor's and VS Code's project files, Claude
// Desktop's configuration), first found wins.
var MCPConfigPaths = []string{".mcp.json", "mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", "claude_desktop_config.json",
	".claude/mcp.json", ".gemini/settings.json", ".windsurf/mcp.json", ".roo/mcp.json"}
