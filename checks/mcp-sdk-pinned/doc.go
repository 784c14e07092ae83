// Package mcpsdkpinned implements the mcp-sdk-pinned check.
package mcpsdkpinned

// Doc is the check's documentation.
const Doc = `Finds the MCP SDK the server depends on (@modelcontextprotocol/sdk in
package.json, mcp or fastmcp in pyproject.toml or requirements*.txt, rmcp
in Cargo.toml) and warns when its version is unbounded (no version, *,
latest, a bare >= or >, a git or URL source) and no lockfile pins it
(package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock,
bun.lock; uv.lock, poetry.lock, pdm.lock, Pipfile.lock, pylock.toml; Cargo.lock). A
bounded range (1.2.3, ^1.2, ~1.2, >=1,<2, ~=1.2, ==1.2) or a lockfile
passes; Go modules always pass, go.mod and go.sum pin them. Without an MCP
SDK dependency the check is not applicable.`

// Remediation says how to fix a finding.
const Remediation = `Declare a bounded version range for the SDK and commit the lockfile.`
