// Package mcptooldescriptions implements the mcp-tool-descriptions check.
package mcptooldescriptions

// Doc is the check's documentation.
const Doc = `Reads the description of every tool the server serves (registrations in
test files and in files nothing can load are not the surface) and warns,
graded by the share of tools affected, on one missing, shorter than 15
characters or longer than 1,024. With registrations none of which could
be resolved statically the check skips; a server with no tools is not
judged.`

// Remediation says how to fix a finding.
const Remediation = `Describe each tool's purpose, inputs and effects in 15 to 1,024
characters.`
