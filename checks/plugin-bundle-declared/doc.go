// Package pluginbundledeclared implements the plugin-bundle-declared check.
package pluginbundledeclared

// Doc is the check's documentation.
const Doc = `Counts the components a plugin ships: skills, commands, agents, hooks and
MCP servers declared in its manifest or present in the default places
(skills/*/SKILL.md, commands/*.md, agents/*.md, hooks/hooks.json,
.mcp.json). Warns when there are none; the count is reported as the
bundled_items metric.

Why: a plugin that bundles nothing is either broken or a wrapper whose real
content arrives later, from somewhere the evaluation never saw.`

// Remediation says how to fix a finding.
const Remediation = `Ship the plugin's components in the default directories or declare
their paths in .claude-plugin/plugin.json.`
