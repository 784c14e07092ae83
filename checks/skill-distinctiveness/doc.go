// Package skilldistinctiveness implements the skill-distinctiveness check.
package skilldistinctiveness

// Doc is the check's documentation.
const Doc = `Looks for paragraphs of SKILL.md's body, 12 words or longer, that are
repeated after normalisation (case, punctuation and formatting ignored),
and warns with the share of the body's words that repeat ("~N%
redundant"). Repetition costs tokens in every use of the skill.`

// Remediation says how to fix a finding.
const Remediation = `Say it once; refer back to it instead of repeating it.`
