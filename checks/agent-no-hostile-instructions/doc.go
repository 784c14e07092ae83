// Package agentnohostileinstructions implements the agent-no-hostile-instructions check.
package agentnohostileinstructions

// Doc is the check's documentation.
const Doc = `Reads every agent's body (every agent markdown file, not the first, and
agent.json instructions) with the hostile-action and instruction
analysers, including shell commands in its fenced blocks, and subagent
text aimed at the parent agent ("tell the main agent to ignore ...").
Text after frontmatter padding is read too. It fails on a hit that is
neither negated nor a labelled example.`

// Remediation says how to fix a finding.
const Remediation = `Remove the instruction.`
