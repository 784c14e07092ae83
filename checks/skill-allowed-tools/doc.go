// Package skillallowedtools implements the skill-allowed-tools check.
package skillallowedtools

// Doc is the check's documentation.
const Doc = `Compares a skill's allowed-tools with what it does. It warns when
allowed-tools is absent or '*' while the skill ships scripts or its
instructions run commands (every tool is then pre-approved or the user is
asked for each), and on broad grants (unrestricted Bash, Bash(*), Write,
Edit, WebFetch) in a skill that ships no scripts and whose instructions
run nothing. It passes otherwise, naming elevated grants. A prose-only
skill without the field is fine.`

// Remediation says how to fix a finding.
const Remediation = `Grant the narrowest tools the skill needs, e.g. Bash(python scripts/fill.py:*).`
