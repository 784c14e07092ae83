// Package homepagedeclared implements the homepage-declared check.
package homepagedeclared

// Doc is the check's documentation.
const Doc = `Looks for where people can read more and report problems: package.json
homepage or repository; pyproject.toml [project.urls] (any key) or poetry's
homepage, repository or documentation; Cargo.toml homepage or repository; a
go.mod module path on a forge host (github.com, gitlab.com, bitbucket.org,
codeberg.org, git.sr.ht, gitea.com); homepage, repository or website in
plugin.json, server.json or agent.json; a skill's metadata.homepage or
metadata.repository. It warns when there is none, except for skills
without the field, which are not applicable: the skill format has no
homepage field.`

// Remediation says how to fix a finding.
const Remediation = `Declare the repository (package.json repository, [project.urls], Cargo repository, plugin.json homepage).`
