// Package skillfrontmatterdepth implements the skill-frontmatter-depth check.
package skillfrontmatterdepth

// Doc is the check's documentation.
const Doc = `Checks SKILL.md frontmatter against the skill format, beyond loading.
Warns when: the name is over 64 characters or not lowercase kebab-case
(^[a-z0-9]+(-[a-z0-9]+)*$); the name differs from the skill's directory
name; the description is over 1024 characters; the name or description
holds XML-like tags; or a top-level key is outside name, description,
license, compatibility, metadata and allowed-tools (a legacy 'version' is
noted, not warned). Neutral when the frontmatter does not load (that is
skill-frontmatter's finding).

Why: agents list skills by name and choose them by description; tags in
those fields reach the model's system prompt verbatim, and unknown keys
are silently ignored by one agent and honoured by another.`

// Remediation says how to fix a finding.
const Remediation = `Follow the skill format: a kebab-case name equal to the directory name,
a plain description under 1024 characters, and custom keys under
'metadata'.`
