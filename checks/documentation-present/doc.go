// Package documentationpresent implements the documentation-present check.
package documentationpresent

// Doc is the check's documentation.
const Doc = `Reads the documentation of the artifact's kind: the root README and, for
a skill, SKILL.md; for a plugin, PLUGIN.md; for an agent, AGENT.md and its
agent files; for an MCP server, docs/*.md. It counts prose words in the
richest of them, leaving out frontmatter, fenced code, inline code and
HTML comments. It fails when there is no documentation at all (a plugin
whose manifest description has 8 words or more and that declares
components warns at 0.7 instead) and warns, graded min(1, words/50) × 0.8,
under 50 words.`

// Remediation says how to fix a finding.
const Remediation = `Say what it does, how to install it and how to use it.`
