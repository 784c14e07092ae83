// Package depsnoknownvulns implements the deps-no-known-vulns check.
package depsnoknownvulns

// Doc is the check's documentation.
const Doc = `Looks up every resolved dependency version in OSV. It runs only when the
run is granted the network (attest run --net); offline it is skip, which
lowers coverage. Versions come from lockfiles, read by osv-scalibr's
extractors: package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml,
yarn.lock, bun.lock; uv.lock, poetry.lock, Pipfile.lock, pdm.lock and ==
pins in requirements*.txt; go.mod; Cargo.lock. A member of an enclosing
workspace whose lockfile is at the workspace root is looked up through that
lockfile (named as ../../package-lock.json in the evidence), which covers
every member of the workspace. A range with no resolved
version is counted as unresolved, never queried as its lower bound. For
an ecosystem with no lockfile, exact pins in the manifests (npm 1.2.3, PyPI
==1.2.3, Cargo =1.2.3) are looked up as they are; when nothing at all can
be looked up (no lockfile, or lockfiles none of whose versions resolve or
read), the check warns at 0.75, and lockfiles that name no package at all
are neutral: a pass always rests on lookups it records.

The lookup goes through one HTTPS client that reaches only
api.osv.dev and osv.dev (or the host of ATTEST_OSV_URL, an HTTPS mirror),
re-checks redirects against that list and caps every response while
reading it. It sends OSV querybatch requests (at most 1,000 queries each,
following next_page_token) and fetches each advisory. Severity is the CVSS
base score computed from the advisory's v2, v3.x or v4.0 vectors, else the
database's rating. Every request, with the sha256 of its response, is
recorded as evidence and in the detail.

It fails on a malicious-package advisory (MAL-) and on a CRITICAL
advisory (9.0 or more) on a runtime dependency. High warns at 0.25;
moderate, low, unrated or dev-only advisories warn at 0.75.`

// Remediation says how to fix a finding.
const Remediation = `Upgrade the dependency to a fixed version (named in the evidence) and update the lockfile; remove a malicious package and rotate anything it could reach.`
