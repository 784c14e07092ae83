// Package pluginbundleresolves implements the plugin-bundle-resolves check.
package pluginbundleresolves

// Doc is the check's documentation.
const Doc = `Detects a plugin manifest path that does not resolve inside the plugin.
Every path the manifest declares for commands, agents, skills, hooks,
mcpServers, outputStyles and lspServers, and every ${CLAUDE_PLUGIN_ROOT}
path in an inline hook or MCP server command, is resolved with
${CLAUDE_PLUGIN_ROOT} and './' taken as the plugin root. It fails when a
path is missing or leaves the root (an absolute path, '..' above the root,
a home directory).

Why: a component the plugin declares but does not ship is loaded from
wherever the path happens to point on the user's machine, or not at all.`

// Remediation says how to fix a finding.
const Remediation = `Declare relative './' paths (or ${CLAUDE_PLUGIN_ROOT}/...) to files the
plugin ships.`
