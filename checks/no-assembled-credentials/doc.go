// Package noassembledcredentials implements the no-assembled-credentials check.
package noassembledcredentials

// Doc is the check's documentation.
const Doc = `Runs the secret rules over strings the code builds rather than writes:
concatenation, join, reversal, char-code arrays, base64 and hex decoding,
and constants propagated within the file (JavaScript/TypeScript and
Python). It fails when a derived string holds a secret shape that no single
raw literal of the file contains ("AK" + "IA" + PART2). Minified and long
lines get no exemption. Evidence is the line of the assembly and the rule
id, never the value.`

// Remediation says how to fix a finding.
const Remediation = `Revoke and rotate the credential, remove it from history, and read it
from the environment at run time.`
