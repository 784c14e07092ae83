// Package agenttoolscope implements the agent-tool-scope check.
package agenttoolscope

// Doc is the check's documentation.
const Doc = `Reads every agent's tool scope. It fails, blocking, on
permissionMode bypassPermissions (nothing the agent does asks the user). It warns on a
markdown agent without 'tools' (it inherits every tool) and on an
agent.json without a tool list. It passes otherwise, naming elevated tools
(Bash, Write, Edit, WebFetch).`

// Remediation says how to fix a finding.
const Remediation = `List the tools the agent needs, and never bypass permissions.`
