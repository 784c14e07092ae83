// Package mcpsurfacestable implements the mcp-surface-stable check.
package mcpsurfacestable

// Doc is the check's documentation.
const Doc = `Looks in the server's source for signs that the surface a user approved
changes afterwards (a rug pull): a tool registered, removed or re-described
inside a request handler, a timer or a callback; a description assigned or
updated at run time (tool.description = ..., registered.update({description});
a tools/list_changed notification sent from a handler; a description
computed from the clock, a random number, a call counter or a network
response (a call the vocabulary knows as reaching the network); in Go,
AddTool after the server starts serving.

Any of these fails with score 0; the check is not blocking by itself, as a
poisoned replacement string is caught by the poisoning checks, which read
every literal. Declaring listChanged with no dynamic registration found is a
warning. Not flagged: registration in a startup loop over static
configuration, feature flags read from the environment at startup,
descriptions read from a shipped file at startup.`

// Remediation says how to fix a finding.
const Remediation = `Declare a fixed surface at startup, and publish a new version instead of
changing tools under a running session.`
