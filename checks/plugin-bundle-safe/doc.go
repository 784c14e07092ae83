// Package pluginbundlesafe implements the plugin-bundle-safe check.
package pluginbundlesafe

// Doc is the check's documentation.
const Doc = `Judges what each component a plugin bundles does, through the analysis
model: the commands and code in bundled skills, agents and commands, and
the launch specs of the bundled MCP configuration (.mcp.json and the
manifest's mcpServers), each held to the rules for commands run on the
user's behalf (running what is downloaded or decoded, remote shells,
secrets sent away, credential reads, persistence, privilege, destruction,
defence evasion). An agent or a command that steers the model against its
user (overriding its instructions, concealing, claiming authority,
skipping approval, hiding content in what it produces, withholding
evidence from a reviewer, suppressing verification, redirecting messages)
fails; any component that tells the model to follow
fetched instructions, delete broadly or turn safety off fails. What a
Dockerfile block's RUN steps do happens inside the image it builds: its
deletions pass, its persistence and privilege changes warn. A plain
http:// remote server warns. Neutral when the plugin bundles nothing. The
bundled MCP servers' sources are read by the MCP checks.`

// Remediation says how to fix a finding.
const Remediation = `Fix the component as its own check says; the evidence names it.`
