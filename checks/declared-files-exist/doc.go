// Package declaredfilesexist implements the declared-files-exist check.
package declaredfilesexist

// Doc is the check's documentation.
const Doc = `Checks package.json 'files': every plain entry must exist and every glob
must match something, except an entry under the output of a build the
package declares (as in entry-resolves). Warns once per missing entry;
neutral when 'files' is absent. Negated entries ('!x') are ignored.

Why: 'files' decides what npm publishes; a stale entry means the published
package differs from the tree that was evaluated.`

// Remediation says how to fix a finding.
const Remediation = `Remove stale entries from "files", or add the build that produces them.`
