// Package manifestpresent implements the manifest-present check.
package manifestpresent

// Doc is the check's documentation.
const Doc = `Detects an artifact whose kind manifest is missing (skill: SKILL.md;
plugin: .claude-plugin/plugin.json or plugin.json; agent: agent.json or an
agent markdown file with frontmatter; mcp: package.json, pyproject.toml,
setup.py, setup.cfg, go.mod, Cargo.toml or server.json; an MCP client
configuration with no server beside it is its own manifest), any manifest that
is present but cannot be parsed, and duplicate keys in any JSON, YAML or
TOML manifest or hooks/MCP configuration.

Why: every other check, and every consumer, reads the manifest. A duplicate
key is an attack: parsers disagree on which value wins, so a reviewer and an
installer can read different manifests from the same bytes.

A UTF-8 byte order mark is accepted. A SKILL.md without frontmatter is
skill-frontmatter's finding, not this one's.`

// Remediation says how to fix a finding.
const Remediation = `Add the manifest for the artifact's kind, or repair the one named
at the reported line; remove the duplicated key so exactly one value
remains. A Python MCP server with only requirements.txt should declare
itself in a pyproject.toml.`
