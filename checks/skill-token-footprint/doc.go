// Package skilltokenfootprint implements the skill-token-footprint check.
package skilltokenfootprint

// Doc is the check's documentation.
const Doc = `Estimates the tokens a skill costs up front as ⌈characters/4⌉: its
description, which is loaded in every conversation, and its SKILL.md body,
loaded when the skill is used. It warns when the description exceeds 200
tokens or the body 5,000. Files the body refers to (markdown links and
code-quoted paths that the skill ships) are progressive disclosure, loaded
only when needed; the note counts them.`

// Remediation says how to fix a finding.
const Remediation = `Keep the description to one or two sentences and move detail from SKILL.md into referenced files.`
