// Package nosecretexfiltration implements the no-secret-exfiltration check.
package nosecretexfiltration

// Doc is the check's documentation.
const Doc = `Follows secrets to the network within one JavaScript/TypeScript or
Python file. Sources: reads of credential stores (~/.ssh, ~/.aws, ~/.netrc,
~/.git-credentials, Docker and Kubernetes configs, ~/.npmrc, ~/.pypirc,
agent credential files under ~/.claude or ~/.codex, browser login and
cookie stores, /etc/shadow, .env files), bulk environment dumps (the whole
process.env or os.environ) and secret environment variables (names with
key, token, secret, password, credential, auth, session or cookie). A
value is followed through variables assigned from it. Sinks: the
arguments of network calls (fetch, axios, http(s), WebSocket; requests,
httpx, urllib, aiohttp, socket, smtplib).

It fails when a credential-store read or an environment dump reaches any
sink, and when a secret environment variable reaches a request's body,
query or URL. A secret variable used as the credential in an
Authorization or API-key header, or passed to an SDK constructor, passes:
that is what it is for. Flows across files are out of scope here; the
sandbox's network ledger sees them at run time.`

// Remediation says how to fix a finding.
const Remediation = `Send credentials only to the service they belong to, in its auth header;
never read or ship credential files.`
