// Package mcpconfigsafe implements the mcp-config-safe check.
package mcpconfigsafe

// Doc is the check's documentation.
const Doc = `Judges each server entry of an MCP client configuration the artifact
ships (.mcp.json, mcp.json, .cursor/mcp.json, .vscode/mcp.json,
claude_desktop_config.json and the like, and a plugin's mcpServers) as
a launch spec: what the client fetches and starts, what secrets it hands
over, and how it reaches a remote server. Its command and arguments are
judged by the shell rules (no-download-and-run and the other shell
checks), its packages by deps-not-typosquatted and deps-bounded; this
check follows the secrets.

A server is fetched at launch when the client downloads it every time it
starts it: a package run by npx, bunx, pnpm dlx, yarn dlx, uvx, uv tool
run or pipx run, or an image run by docker or podman. It is pinned when
the entry names an exact version (name@1.2.3, name==1.2.3) or an image
digest or version tag. A secret's provider is read from the name of the
environment variable that holds it (AWS_*, GITHUB_*, OPENAI_* …); a
server is its provider's when its package, image or host names it.

Fails when a cloud account's credentials (AWS, Google Cloud, Azure; in
env, or a value or header that refers to them) are handed to a server
fetched unpinned at launch that is not that provider's, since every
start runs whatever a stranger last published with the account in its
environment; and when a secret is sent to a remote server over plain
http, or to a tunnel, capture, paste or dynamic-DNS host. Warns when a
service's API key goes to another's server fetched unpinned (a third
party's server commonly needs the service's key, so this is a concern to
review), when any secret goes to a server fetched unpinned, to another
provider's server pinned to a version, or to a remote https server that
is not its provider's, and when a remote server is reached over plain
http with no secret (every tool description and result can be rewritten
on the way).

Not flagged: a secret handed to a local command (node server.js, python
-m server), a pinned server of the key's provider, a loopback URL.`

// Remediation says how to fix a finding.
const Remediation = `Pin the server to an exact version or image digest, hand each secret
only to its provider's own server, and reach remote servers over https.`
