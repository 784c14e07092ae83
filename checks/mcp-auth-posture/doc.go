// Package mcpauthposture implements the mcp-auth-posture check.
package mcpauthposture

// Doc is the check's documentation.
const Doc = `Reads the code of a server that speaks HTTP (Streamable HTTP or SSE) for
weak authentication and exposure, and warns on each: a JWT verified
without an audience, or decoded without verification; a client's
Authorization header forwarded to a downstream request (token
passthrough: a request the analysis model records as a network send,
whatever the library); binding to 0.0.0.0 with no authentication in the
code (no authentication, OAuth, bearer or JWT code, and no configured
secret read: none the model labels with the vocabulary's secret names,
such as SERVER_TOKEN or MCP_API_KEY); a
local HTTP server with no Origin or Host validation (DNS rebinding); CORS
allowing any origin together with credentials. A stdio-only server is not
judged. The check only warns: each of these can be intended, and a
reviewer should see it.`

// Remediation says how to fix a finding.
const Remediation = `Validate token audience and request origin, bind to localhost, and never
forward a client's token to another service.`
