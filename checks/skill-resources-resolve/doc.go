// Package skillresourcesresolve implements the skill-resources-resolve check.
package skillresourcesresolve

// Doc is the check's documentation.
const Doc = `Follows the references in SKILL.md and, transitively, in every markdown
file it references: markdown link and image targets, '@path' includes, and
tokens of inline code or fenced blocks that are relative paths to scripts,
code or documents (scripts/fill.py, reference/forms.md, templates/). A
reference resolves against the referring file's directory or the skill
root. URLs, anchors, absolute and '~' paths, and placeholders (<file>,
{x}, $VAR, globs) are ignored. Warns for each missing path, and for a
reference that leaves the skill (../shared/x.md); neutral when there are
no references.

Why: the agent follows these references at run time; a missing one makes
the skill fail mid-task, and one that leaves the skill loads whatever sits
beside it on the user's machine.`

// Remediation says how to fix a finding.
const Remediation = `Ship the referenced file inside the skill, or correct the reference.`
