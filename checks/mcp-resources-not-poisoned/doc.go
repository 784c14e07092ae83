// Package mcpresourcesnotpoisoned implements the mcp-resources-not-poisoned check.
package mcpresourcesnotpoisoned

// Doc is the check's documentation.
const Doc = `Reads every string of the server's resources and resource templates
(names, titles, descriptions, URIs and URI templates, constant content),
from source or a captured surface, with the analysis mcp-tools-not-poisoned
applies to tools, and fails on a static resource that exposes a sensitive
local path (file:///.../.ssh/..., ~/.aws/credentials, .env files). Test
registrations warn; resources whose text is resolved only at run time are
counted and named in the result (capture the surface and pass it with
--surface to read them).`

// Remediation says how to fix a finding.
const Remediation = `Describe the data, never instruct the model, and expose no credential
file as a resource.`
