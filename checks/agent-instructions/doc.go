// Package agentinstructions implements the agent-instructions check.
package agentinstructions

// Doc is the check's documentation.
const Doc = `Reads every agent: the body of each markdown agent file, and the
instructions of agent.json. The weakest counts: a markdown prompt under 40
words warns graded words/40; agent.json instructions under 20 words warn
graded words/20.`

// Remediation says how to fix a finding.
const Remediation = `Write the agent's role, scope and limits.`
