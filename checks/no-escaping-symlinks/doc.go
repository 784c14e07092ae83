// Package noescapingsymlinks implements the no-escaping-symlinks check.
package noescapingsymlinks

// Doc is the check's documentation.
const Doc = `Detects symbolic links that leave the artifact: a target that is absolute
(including /dev and /proc), or that climbs above the artifact root when
resolved segment by segment, following chains of links inside the tree
for up to 40 hops. A link that dangles inside the tree, or a chain that
loops, is a warning.

Why: an installer or agent that follows such a link reads or writes a file
of the user's machine (~/.ssh, /etc, a device) while the reviewer saw only
a path inside the artifact. attest itself never follows a link: it records
each link's target and judges it here.`

// Remediation says how to fix a finding.
const Remediation = `Remove the link, replace it with the file it points to, or point it at
a relative path inside the artifact.`
