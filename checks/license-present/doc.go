// Package licensepresent implements the license-present check.
package licensepresent

// Doc is the check's documentation.
const Doc = `Passes when the artifact says on what terms it may be used: a root
LICENSE, LICENCE, COPYING or UNLICENSE file (any case, any extension or
suffix such as LICENSE-MIT), or a declared licence: a package.json SPDX
expression, pyproject 'license' or 'license-files', Cargo 'license' or
'license-file', or a 'license' in SKILL.md, plugin.json or agent.json. A
licence field that names a file ("Complete terms in LICENSE.txt") passes
when the file is there. Warns when there is none, on UNLICENSED, on an
invalid SPDX expression with no licence file, or when the named file is
absent. Never fails.

Why: without a licence an artifact cannot lawfully be redistributed by a
registry or vendored by a user, whatever it does.`

// Remediation says how to fix a finding.
const Remediation = `Add a LICENSE file and declare its SPDX identifier in the manifest's
'license' field.`
