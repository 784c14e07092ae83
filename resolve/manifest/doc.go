// Package manifest parses the manifests an artifact ships (SKILL.md
// frontmatter, package.json, pyproject.toml, requirements.txt, go.mod,
// Cargo.toml, plugin.json, hooks.json, agent.json, .mcp.json, server.json)
// with real parsers under explicit size, depth and alias limits, keeping the
// exact 1-based line and column of every field it reports.
//
// Input is untrusted: every parser returns an error, never panics, and never
// reads beyond the bytes it was handed.
package manifest

// Limits on untrusted manifest input. A manifest over a limit is an error
// naming the limit, which the checks report as a finding.
const (
	MaxManifestBytes = 1 << 20 // 1 MiB for any single manifest
	MaxJSONDepth     = 256
	MaxYAMLDepth     = 64
	MaxYAMLAliases   = 100 // alias expansions in one document
	MaxYAMLNodes     = 100_000
	MaxRequirements  = 10_000 // lines in a requirements file
)
