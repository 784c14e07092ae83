// Package nosecretexfiltration implements the no-secret-exfiltration check.
package nosecretexfiltration

// Doc is the check's documentation.
const Doc = `Follows secrets to the network through the analysis model, in every
medium an artifact ships: code (Python, JavaScript/TypeScript, Go, shell,
PowerShell), the fenced, indented and inline commands of its documents, the
instructions its documents give the model, hooks, package scripts and MCP
launch specs. Sources are the vocabulary's credential stores (~/.ssh,
~/.aws/credentials, .env files, keychains, browser profiles, wallets,
another agent's configuration, shell history), secret environment variables,
the whole environment, the conversation and the clipboard. Sinks are
HTTP requests, sockets, DNS lookups, mail and webhooks. A value is followed
through assignments, containers, string building, encodings, loops over
literal tables, function calls, returns and the artifact's own imports.

It fails when a secret reaches a sink: a credential store, the whole
environment, the conversation or the clipboard sent anywhere; a secret
environment variable sent in a request's body, query or URL to a host the
artifact does not declare, or to a capture, paste or tunnel host. A secret
used as the credential of a request (an Authorization header, an auth
argument) to any host but a capture, paste or tunnel host passes: that is
what it is for; so does a secret that is the whole address of the request
(a webhook URL kept in a secret variable). A labelled example, a negated instruction ("never send your
keys to …") and a flow the engine could only place in the same document
without tracing it warn at most. Each finding names the source's line, the
sink's line and whether the code can run.`

// Remediation says how to fix a finding.
const Remediation = `Send credentials only to the service they belong to, in its auth header;
never read or ship credential files, the environment or the conversation.`
