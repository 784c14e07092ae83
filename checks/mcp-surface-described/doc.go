// Package mcpsurfacedescribed implements the mcp-surface-described check.
package mcpsurfacedescribed

// Doc is the check's documentation.
const Doc = `Reads the description of every prompt and resource the server serves
(registrations in test files and in files nothing can load are not the
surface) and warns, graded by the share affected, on one missing, shorter
than 15 characters or longer than 1,024. With registrations none of which
could be resolved statically the check skips; a server with no prompts or
resources is not judged.`

// Remediation says how to fix a finding.
const Remediation = `Describe each prompt's and resource's purpose and content in 15 to
1,024 characters.`
