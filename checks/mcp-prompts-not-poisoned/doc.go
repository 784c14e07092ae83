// Package mcppromptsnotpoisoned implements the mcp-prompts-not-poisoned check.
package mcppromptsnotpoisoned

// Doc is the check's documentation.
const Doc = `Reads every string of the server's prompts (names, titles, descriptions,
argument names and descriptions, and constant template bodies), from
source or a captured surface, with the analysis mcp-tools-not-poisoned
applies to tools: instructions to the model, concealment, hidden-tag
blocks, credential and MCP-configuration reads, requests for the
conversation or the system prompt, padding. Pressure alone warns, test
registrations warn, and prompts whose text is resolved only at run time
are counted and named in the result (capture the surface and pass it with
--surface to read them).`

// Remediation says how to fix a finding.
const Remediation = `Describe what the prompt does; keep instructions to the model out of
names, descriptions and argument text.`
