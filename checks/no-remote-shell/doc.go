// Package noremoteshell implements the no-remote-shell check.
package noremoteshell

// Doc is the check's documentation.
const Doc = `Finds a shell handed to the network: a shell whose standard streams are
bound to a socket (bash -i >& /dev/tcp/…, a socket dup2'ed onto stdin and
stdout before pty.spawn or exec of /bin/sh), netcat or ncat run with -e or
-c, socat running exec: or system: for a connection, a named pipe looped
through a shell and netcat, and input read from a connection and run. It
reads code, documents' commands, hooks and scripts through the analysis
model, including code run from strings (python -c, sh -c, exec).

It fails on each; a labelled example or a prohibition passes.`

// Remediation says how to fix a finding.
const Remediation = `Remove the remote shell. An artifact that needs a remote session should use
the user's own SSH client with their consent.`
