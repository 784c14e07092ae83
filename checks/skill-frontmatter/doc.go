// Package skillfrontmatter implements the skill-frontmatter check.
package skillfrontmatter

// Doc is the check's documentation.
const Doc = `Detects a skill whose SKILL.md cannot be loaded the way an agent loads it:
no SKILL.md; no '---' frontmatter block opening on line 1; a YAML error; a
frontmatter over the alias-expansion, depth or size limit; a second YAML
document; tabs used as indentation; or a 'name' or 'description' that is
missing, empty, not a string, or defined twice.

Why: the agent decides when to use a skill from exactly these two fields.
A block that one parser reads and another rejects, or that expands into
something no reviewer saw, is a skill whose trigger nobody can audit.`

// Remediation says how to fix a finding.
const Remediation = `Start SKILL.md with a '---' block holding a string 'name' and a string
'description', closed by '---'; use spaces for indentation, no anchors or
aliases, and a single YAML document.`
