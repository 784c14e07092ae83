// Package mcpsurfacewellformed implements the mcp-surface-well-formed check.
package mcpsurfacewellformed

// Doc is the check's documentation.
const Doc = `Judges the shape of the server's MCP surface, as a client receives it:
a captured snapshot (attest run --surface), or the surface discovered
from source where its names and schemas are constants.

Fails on what the MCP specification requires and a client relies on: a
tool, prompt or resource with no name; two tools (or two prompts, or two
resources with one URI) of the same name in a captured surface, where a
client keeps one and the model may call the other; a tool of a captured
surface with no inputSchema; an inputSchema or outputSchema that is not
a JSON object of type "object", or that is not a valid JSON Schema (it
does not parse as one, or a reference inside it does not resolve).

Warns on what the specification recommends: a tool name longer than 128
characters or holding characters other than ASCII letters, digits, "_",
"-" and "."; a schema's "required" naming a property it does not define;
a reference to a remote schema, which attest does not fetch; two tools of
one name registered in source, which a configuration may choose between.

Why: the surface is what the model reads and calls. A duplicate name lets
one tool stand in for another, and a schema a client cannot read makes
every argument the model sends unchecked. For a captured surface these
are the integrity facts there are: it has no package, manifest or
version to judge.

Not applicable when the server has no tools, prompts or resources.`

// Remediation says how to fix a finding.
const Remediation = `Give every tool a unique name of ASCII letters, digits, "_", "-" and "."
(at most 128 characters) and an inputSchema that is a JSON Schema object
of type "object" whose "required" names only properties it defines.`
