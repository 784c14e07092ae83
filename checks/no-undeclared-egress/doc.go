// Package noundeclaredegress implements the no-undeclared-egress check.
package noundeclaredegress

// Doc is the check's documentation.
const Doc = `Finds the network destinations of JavaScript/TypeScript, Python and Go
code: the destination of every network send or connection the analysis
model records there (fetch, axios, http(s).request, WebSocket,
net.connect; requests, httpx, urllib, aiohttp, socket; net/http, with the
vocabulary's call tables saying which calls reach the network and the
model folding their arguments: "ht" + "tp://" + [203,0,113,7].join(".")),
and URLs assigned to url/endpoint/host/base/api/webhook/server names or
given as env defaults. Declared hosts are those the artifact's
documentation and manifests name (homepage, repository, bugs, server.json
remotes) and the package registries and forges the vocabulary names.

It fails on a public IP literal in any form (dotted, decimal, octal, hex,
IPv6; the documentation ranges count as public), on cloud metadata
endpoints (the vocabulary's metadata hosts, by address or by name:
metadata.google.internal, http://metadata/), and on undocumented hosts the
vocabulary labels as capture, paste, file-drop, tunnel, chat-webhook,
dynamic-DNS or mining-pool hosts (webhook.site, pastebin, transfer.sh,
ngrok, trycloudflare, interactsh/oast, Discord and Telegram bot webhooks).
It warns on other undocumented hosts and on private addresses. XML
namespaces, $schema and @context values, URLs in comments and strings
that are not sent anywhere, commands a document shows, reserved names
(example.com, .test, .invalid, .localhost, .internal) and loopback pass,
and so does an address a Python test hands the artifact's own code inside
a block that expects it refused (pytest.raises, assertRaises); a request
made inside such a block is still judged.
The metric egress_hosts counts every host.`

// Remediation says how to fix a finding.
const Remediation = `Document the host the artifact talks to, or remove the call.`
