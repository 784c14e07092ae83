// Package skillfrontmatterdepth implements the skill-frontmatter-depth check.
package skillfrontmatterdepth

// Doc is the check's documentation.
const Doc = `Checks SKILL.md frontmatter against the skill format, beyond loading.
Warns when: the name is over 64 characters or not lowercase kebab-case
(^[a-z0-9]+(-[a-z0-9]+)*$); the description is over 1024 characters; the name or description
holds XML-like tags; or a top-level key is outside name, description,
license, compatibility, metadata and allowed-tools (a legacy 'version' is
noted, not warned). Neutral when the frontmatter does not load (that is
skill-frontmatter's finding). The directory the skill sits in is not
compared: a deterministic check judges only the digested bytes, and the
same tree downloaded into another directory must get the same result
(1.0.0 compared the name with the directory's name).

Why: agents list skills by name and choose them by description; tags in
those fields reach the model's system prompt verbatim, and unknown keys
are silently ignored by one agent and honoured by another.`

// Remediation says how to fix a finding.
const Remediation = `Follow the skill format: a kebab-case name (agents expect it to match the
directory the skill is installed in), a plain description under 1024 characters, and custom keys under
'metadata'.`
