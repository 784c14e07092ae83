// Package skillbody implements the skill-body check.
package skillbody

// Doc is the check's documentation.
const Doc = `Counts the words of SKILL.md's body, after the frontmatter: prose and the
words of its code blocks (a command is part of a procedure), without HTML
comments. It warns, graded words/50, under 50 words.`

// Remediation says how to fix a finding.
const Remediation = `Write the procedure the model should follow: steps, inputs, outputs and the pitfalls.`
