// Package skillresourcesresolve implements the skill-resources-resolve check.
package skillresourcesresolve

// Doc is the check's documentation.
const Doc = `Follows the references in SKILL.md and, transitively, in every markdown
file it references: markdown link and image targets, '@path' includes with
a file extension, and tokens of inline code or fenced blocks that are
relative paths with a directory part to scripts, code or documents
(scripts/fill.py, reference/forms.md, templates/forms/). Bare names and
single directories in code (README.md, out.pdf, unpacked/), and code paths
whose first directory the skill does not ship (unpacked/word/, dist/x.js),
are taken for outputs or the user's files and not followed. A
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
