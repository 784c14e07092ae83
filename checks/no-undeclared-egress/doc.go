// Package noundeclaredegress implements the no-undeclared-egress check.
package noundeclaredegress

// Doc is the check's documentation.
const Doc = `Finds the network destinations of JavaScript/TypeScript and Python code
in network context: the URL or host argument of a network call (fetch,
axios, http(s).request, WebSocket, net.connect; requests, httpx, urllib,
aiohttp, socket) and URLs assigned to url/endpoint/host/base/api/webhook/
server names or given as env defaults, with their strings folded first
("ht" + "tp://" + [203,0,113,7].join(".")). Declared hosts are those the
artifact's documentation and manifests name (homepage, repository, bugs,
server.json remotes) and the package registries and forges.

It fails on a public IP literal in any form (dotted, decimal, octal, hex,
IPv6; the documentation ranges count as public), on cloud metadata
endpoints, and on undocumented paste, tunnel and capture hosts (pastebin,
transfer.sh, ngrok, trycloudflare, webhook.site, requestbin, pipedream,
interactsh/oast, burpcollaborator, Telegram and Discord bot and webhook
APIs). It warns on other undocumented hosts and on private addresses. XML
namespaces, $schema and @context values, URLs in comments and strings
that are not sent anywhere, reserved names (example.com, .test, .invalid,
.localhost) and loopback pass. The metric egress_hosts counts every host.`

// Remediation says how to fix a finding.
const Remediation = `Document the host the artifact talks to, or remove the call.`
