// Package pluginbundlesafe implements the plugin-bundle-safe check.
package pluginbundlesafe

// Doc is the check's documentation.
const Doc = `Gives each component a plugin bundles the analysis of its own kind:
the hostile-action analyser over every bundled skill's markdown, the
hostile-action and instruction analysers over agents and commands, and the
shell rules over the commands of .mcp.json and the manifest's mcpServers
(a plain http:// remote server warns). Neutral when the plugin bundles
nothing. The bundled MCP servers' sources are read by the MCP checks.`

// Remediation says how to fix a finding.
const Remediation = `Fix the component as its own check says; the evidence names it.`
