// Package mcplaunchable implements the mcp-launchable check.
package mcplaunchable

// Doc is the check's documentation.
const Doc = `Detects an MCP server that declares no way to start it. Any one route
passes: a Node package.json 'bin', 'scripts.start', or a 'main'/'exports'
entry whose code creates a server transport; a Python [project.scripts]
entry, a package __main__.py, or a module that runs a FastMCP or Server
instance under 'if __name__ == "__main__":'; a Go 'package main' with
'func main' importing an MCP SDK (at the root or under cmd/); a Rust bin
target; or a server.json with packages[] (registryType and identifier) or
remotes[] (remote-only). An MCP client configuration with no server
beside it (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
claude_desktop_config.json) passes when every server entry names a
command to start or a URL to reach, and fails on an entry with neither.

Why: a client, a registry and the behavioral tier all need to launch the
server the way its author intends; a server with no declared launcher is
started by guesswork, which is how the wrong file gets run.

Code is read with tokenizers, so a transport named in a comment or string
does not count as one created.`

// Remediation says how to fix a finding.
const Remediation = `Declare a launcher: a package.json 'bin' or 'start' script, a
[project.scripts] entry in pyproject.toml, a Go main package, a Rust bin
target, or a server.json 'packages' entry.`
