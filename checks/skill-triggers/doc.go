// Package skilltriggers implements the skill-triggers check.
package skilltriggers

// Doc is the check's documentation.
const Doc = `Reads the skill's description for a cue that tells the model when to
load it: "use when/for/to", "use this", "use it when", "should use",
"when the user", "when users", "when you need", "when Claude", "whenever",
"any time", "if the user", "for tasks/requests involving", "invoke",
"trigger", "applies to", "helpful/useful for", "helps with". It warns when
there is none.`

// Remediation says how to fix a finding.
const Remediation = `State when to use the skill: "Use when the user asks to ...".`
