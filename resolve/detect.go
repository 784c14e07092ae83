package resolve

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// ErrUnknownKind means nothing in the tree says what kind of artifact it is.
var ErrUnknownKind = errors.New("could not tell what kind of artifact this is")

// CollectionError means the tree holds several artifacts (a skills
// repository, a plugin marketplace) rather than being one. attest evaluates
// one artifact per run; the error lists the members so the user can point
// at one.
type CollectionError struct {
	Members []string // relative directories, sorted
}

func (e *CollectionError) Error() string {
	return fmt.Sprintf("this directory is a collection of %d artifacts, not a single one", len(e.Members))
}

// MCP SDKs whose presence makes a project an MCP server.
var (
	npmMCPSDKs = []string{"@modelcontextprotocol/sdk", "fastmcp", "mcp-framework", "@mastra/mcp"}
	pyMCPSDKs  = []string{"mcp", "fastmcp"}
	goMCPSDKs  = []string{"github.com/modelcontextprotocol/go-sdk", "github.com/mark3labs/mcp-go", "github.com/metoro-io/mcp-golang"}
	rustSDKs   = []string{"rmcp", "mcp-server", "rust-mcp-sdk"}
	pyImportRe = lex.Lazy(`(?m)^[ \t]*(?:from|import)[ \t]+(?:mcp|fastmcp)(?:[. \t]|$)`)
	jsSDKRe    = lex.Lazy(`(?:require\(|from[ \t]+|import\()[ \t]*["']@modelcontextprotocol/sdk`)
	mcpMention = lex.Lazy(`(?i)\bMCP server\b|\bModel Context Protocol\b`)
)

// Detect decides the artifact's kind from the inventory and manifests.
// Precedence: a plugin manifest, then a root SKILL.md, then an MCP SDK or
// server.json at the root, then a collection of nested skills or plugins,
// then agent files.
func Detect(inv *Inventory, m *Manifests) (Kind, string, error) {
	if m.Plugin != nil {
		return KindPlugin, m.Plugin.Path, nil
	}
	if _, ok := inv.File("SKILL.md"); ok {
		return KindSkill, "SKILL.md", nil
	}
	if why := mcpSignal(inv, m); why != "" {
		return KindMCP, why, nil
	}
	if members := collectionMembers(inv); len(members) > 0 {
		return "", "", &CollectionError{Members: members}
	}
	if m.AgentJSON != nil {
		return KindAgent, m.AgentJSON.Path, nil
	}
	if len(m.Agents) > 0 {
		return KindAgent, m.Agents[0].Path, nil
	}
	if IsClientConfig(inv, m) {
		return KindMCP, m.MCPConfig.Path + " (an MCP client configuration: each server entry is judged as a launch spec)", nil
	}
	return closest(inv)
}

// IsClientConfig reports whether the tree is an MCP client configuration
// rather than a server: it ships one with at least one server entry, and
// nothing declares or implements a server (no server manifest or SDK
// dependency, no code importing an MCP SDK).
func IsClientConfig(inv *Inventory, m *Manifests) bool {
	if c := m.MCPConfig; c == nil || c.V == nil || len(c.V.Servers) == 0 {
		return false
	}
	if mcpSignal(inv, m) != "" {
		return false
	}
	for i := range inv.Files {
		f := &inv.Files[i]
		if !f.Scanned || strings.Count(f.Path, "/") > 2 {
			continue
		}
		switch strings.ToLower(path.Ext(f.Path)) {
		case ".py", ".js", ".mjs", ".cjs", ".ts", ".mts":
			if jsSDKRe.Re().Match(f.Content) || pyImportRe.Re().Match(f.Content) {
				return false
			}
		}
	}
	return true
}

// closest is the kind a tree with no manifest is judged as, so that no
// readable artifact goes unevaluated: code that imports an MCP SDK, or
// documents about an MCP server, are an MCP server; anything else with
// documents or code is judged as a skill (documents and scripts a model
// reads and runs). The integrity checks then say what is missing.
func closest(inv *Inventory) (Kind, string, error) {
	docs, code := 0, 0
	mcpDoc := false
	for i := range inv.Files {
		f := &inv.Files[i]
		if strings.Count(f.Path, "/") > 2 || !f.Scanned {
			continue
		}
		switch strings.ToLower(path.Ext(f.Path)) {
		case ".md", ".markdown", ".txt", ".mdx", ".rst":
			docs++
			if !mcpDoc && mcpMention.Re().Match(f.Content) {
				mcpDoc = true
			}
		case ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".go", ".sh", ".rb", ".ps1":
			code++
			if jsSDKRe.Re().Match(f.Content) || pyImportRe.Re().Match(f.Content) {
				return KindMCP, f.Path + " imports an MCP SDK (no manifest)", nil
			}
		}
	}
	switch {
	case code == 0 && mcpDoc:
		return KindMCP, "no manifest; the documents describe an MCP server", nil
	case docs+code > 0:
		return KindSkill, "no manifest; judged as a skill, the closest kind for documents and scripts a model reads and runs", nil
	}
	return "", "", fmt.Errorf("%w: looked for SKILL.md (skill), .claude-plugin/plugin.json (plugin), "+
		"server.json or an MCP SDK in package.json, pyproject.toml, requirements.txt, go.mod, Cargo.toml or a root .py file (mcp), "+
		"an MCP client configuration, agent.json or agents/*.md with frontmatter (agent), and found no documents or code",
		ErrUnknownKind)
}

func mcpSignal(inv *Inventory, m *Manifests) string {
	if m.ServerJSON != nil {
		return "server.json"
	}
	if m.Package.Ok() {
		for _, sdk := range npmMCPSDKs {
			if m.Package.V.HasDependency(sdk) {
				return "package.json depends on " + sdk
			}
		}
	}
	if m.Pyproject.Ok() {
		for _, d := range m.Pyproject.V.Dependencies {
			if slices.Contains(pyMCPSDKs, manifest.NormalizePyName(d.Name)) {
				return "pyproject.toml depends on " + d.Name
			}
		}
	}
	for _, r := range m.Requirements {
		if !r.Ok() {
			continue
		}
		for _, sdk := range pyMCPSDKs {
			if r.V.Has(sdk) {
				return r.Path + " requires " + sdk
			}
		}
	}
	if m.GoMod.Ok() {
		for _, sdk := range goMCPSDKs {
			if m.GoMod.V.Require(sdk) != nil {
				return "go.mod requires " + sdk
			}
		}
	}
	if m.Cargo.Ok() {
		for _, d := range m.Cargo.V.Dependencies {
			if slices.Contains(rustSDKs, d.Name) {
				return "Cargo.toml depends on " + d.Name
			}
		}
	}
	for i := range inv.Files {
		f := &inv.Files[i]
		if !strings.Contains(f.Path, "/") && strings.HasSuffix(f.Path, ".py") && f.Scanned && pyImportRe.Re().Match(f.Content) {
			return f.Path + " imports an MCP SDK"
		}
	}
	return ""
}

// collectionMembers finds nested skills and plugins when the root is
// neither: skills/<name>/SKILL.md, <name>/SKILL.md, plugins/<name>/...,
// and a plugin marketplace.
func collectionMembers(inv *Inventory) []string {
	seen := map[string]bool{}
	for i := range inv.Files {
		p := inv.Files[i].Path
		var dir string
		switch {
		case path.Base(p) == "SKILL.md" && strings.Count(p, "/") <= 3:
			dir = path.Dir(p)
		case strings.HasSuffix(p, "/.claude-plugin/plugin.json") && strings.Count(p, "/") <= 3:
			dir = strings.TrimSuffix(p, "/.claude-plugin/plugin.json")
		default:
			continue
		}
		if dir != "." {
			seen[dir] = true
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}
