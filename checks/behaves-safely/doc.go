// Package behavessafely implements the behaves-safely check.
package behavessafely

// Doc is the check's documentation.
const Doc = `Judges what the artifact did when it was run in the sandbox (the
behavioral tier), from evidence recorded outside the artifact's reach: the
recording proxy's network ledger and strace's file and process ledgers.
Fails when the deterministic scan flags a normal case (a credential file
opened, such as ~/.ssh/id_rsa, whether or not it exists; a decoy credential
sent; data sent to a host the artifact does not declare; a cloud metadata
address; a destructive or persistence command), or when an adversarial probe
demonstrates a vulnerability deterministically (the output of an injected
command in the answer, or the payload on a shell's command line in the
process ledger; a file outside the server's root returned). The judge cannot
overrule the scan. Warns on the judge's safety concerns, refused connection
attempts, and probe concerns (a server that stops answering on oversized
input, or fetches the metadata address). A provider or judge outage is an
error of the run, never charged to the artifact; without the sandbox and
model grants the check is skipped.`

// Remediation says how to fix a finding.
const Remediation = `Remove the behaviour the transcript and the ledger show: do not
read credentials, send data only to hosts the artifact declares, and pass
arguments to programs as argument lists, never through a shell.`
