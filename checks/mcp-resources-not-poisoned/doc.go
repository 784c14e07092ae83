// Package mcpresourcesnotpoisoned implements the mcp-resources-not-poisoned check.
package mcpresourcesnotpoisoned

// Doc is the check's documentation.
const Doc = `Reads every string of the server's resources and resource templates
(names, titles, descriptions, URIs and URI templates, constant content),
from source or a captured surface, with the analysis mcp-tools-not-poisoned
applies to tools, and fails on a static resource whose URI names a path
the vocabulary labels as the user's secrets: a credential store
(file:///.../.ssh/..., ~/.aws/credentials, ~/.npmrc), a .env file, a
keychain, browser data, a wallet, shell history or another agent's
configuration (a public key is none of them). Test
registrations warn; resources whose text is resolved only at run time are
counted and named in the result (capture the surface and pass it with
--surface to read them).`

// Remediation says how to fix a finding.
const Remediation = `Describe the data, never instruct the model, and expose no credential
file as a resource.`
