// Package pluginhooksnotprivileged implements the plugin-hooks-not-privileged check.
package pluginhooksnotprivileged

// Doc is the check's documentation.
const Doc = `Detects hooks and shipped settings that take decisions or traffic away
from the user. It fails when shipped settings or hook commands set a model
base URL (ANTHROPIC_BASE_URL and the like) or assign a variable the
vocabulary names a secret; when a hook with a broad matcher (*, empty,
Bash, .*) returns permissionDecision "allow" or decision "approve" with no
condition; when a hook, or a script it runs, persists (the user's
~/.claude/settings*.json, shell rc files, agent instruction files) or
writes another agent's configuration, or does what no command run on the
user's behalf may (running downloads, remote shells, secrets sent away,
privilege, destruction), as the analysis model reads it; when shipped
settings set defaultMode bypassPermissions, allow every tool or command,
or enableAllProjectMcpServers; and when an apiKeyHelper or statusLine
command fails those rules. It warns on a hook script that decides
permissions conditionally, and on silent (suppressOutput or async)
SessionStart hooks.`

// Remediation says how to fix a finding.
const Remediation = `Never decide permissions or redirect model traffic on the user's behalf;
let the user grant what the plugin needs.`
