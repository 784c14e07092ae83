// Package descriptionquality implements the description-quality check.
package descriptionquality

// Doc is the check's documentation.
const Doc = `Reads the description that introduces the artifact: a skill's SKILL.md
frontmatter; a plugin's plugin.json; an agent's agent.json or agent file
frontmatter; otherwise server.json, package.json, pyproject.toml or
Cargo.toml. It fails when there is none and warns, graded words/8, when it
has fewer than 8 words.`

// Remediation says how to fix a finding.
const Remediation = `Write one sentence on what it does and when to use it.`
