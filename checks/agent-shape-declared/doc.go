// Package agentshapedeclared implements the agent-shape-declared check.
package agentshapedeclared

// Doc is the check's documentation.
const Doc = `Checks every agent file, not just the first: agent.json must parse with a
'name' and 'instructions' (or an 'entry'); each agent markdown file (every
.md with frontmatter under agents/, subagents/ or .claude/agents/ at any
depth, and root .md files that declare a name and description) must have
frontmatter with string 'name' and 'description'. It fails when no agent
file is found or any one is broken.

Why: an agent runtime loads each file on its own; one broken or nameless
agent among good ones is loaded anyway, or silently dropped, and either
way the user gets something other than what was described. A
frontmatter-less notes file under agents/ is not an agent and is not
judged.`

// Remediation says how to fix a finding.
const Remediation = `Give every agent file frontmatter with a string "name" and
"description" (and agent.json a name and instructions).`
