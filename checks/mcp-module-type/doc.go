// Package mcpmoduletype implements the mcp-module-type check.
package mcpmoduletype

// Doc is the check's documentation.
const Doc = `Node servers only. Warns when a '.js' entry (bin, main, exports["."])
uses ES module syntax (a top-level 'import' or 'export' statement) while
package.json has no "type": "module", or uses CommonJS ('require(' or
'module.exports') under "type": "module" without createRequire. The code
is read with a tokenizer, so 'import' inside a string, comment, template
or regular expression, a dynamic import() and import.meta do not count.
Neutral for .mjs/.cjs entries and non-Node servers.

Why: Node picks the module system from "type"; a mismatch makes the server
crash at start, so clients see a broken server, or the author papers over
it with a loader flag.`

// Remediation says how to fix a finding.
const Remediation = `Set "type" in package.json to match the entry's syntax ("module" for
import/export, "commonjs" for require), or rename the entry .mjs/.cjs.`
