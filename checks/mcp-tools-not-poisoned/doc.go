// Package mcptoolsnotpoisoned implements the mcp-tools-not-poisoned check.
package mcptoolsnotpoisoned

// Doc is the check's documentation.
const Doc = `Reads every string a model sees about each tool of the server's surface
(discovered from TypeScript/JavaScript, Python and Go source, or a
captured snapshot given with --surface): name, title, description
(Python docstrings included), annotation title, and every parameter's
name, title, description, default, enum values and examples, plus the
server's instructions.

It fails on an instruction aimed at the model rather than a description of
the tool: overriding other instructions, concealment from the user ("do
not tell the user"), hidden-tag blocks (<IMPORTANT>, <system>, <secret>,
<instructions>), directives to read credential stores, .env files or MCP
client configurations (~/.cursor/mcp.json, ~/.claude.json) or to pass file
contents, the conversation or the system prompt into a parameter, a
side-channel parameter (sidenote, notes, context, feedback, debug,
metadata, extra) whose description asks for such data, and text hidden
behind hundreds of blank lines or spaces. Pressure to call the tool first
or always ("always call this tool before any other") alone is a warning.
A registration in a test file only warns, and so does a tool whose name
says it does what its description asks (stop_scan: "stop a running
security scan"): that is the tool's action, not a step around its call. A
description built by an f-string or template literal is read with its
substitutions folded where they fold and holes where they are filled at
run time; such registrations are counted and named in a pass. Descriptions
that could not be resolved statically at all are counted; with any of
them, a clean result is skip.

Not flagged: "Refuses paths outside allowed directories such as ~/.ssh",
"Read the complete contents of a file", a notes parameter for commit text,
"IMPORTANT: paths must be absolute", "Use this tool when the user asks
about the weather".`

// Remediation says how to fix a finding.
const Remediation = `Describe what the tool does and nothing else; move any instruction to
the user's documentation, and remove hidden blocks and padding.`
