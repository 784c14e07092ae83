// Package depsbounded implements the deps-bounded check.
package depsbounded

// Doc is the check's documentation.
const Doc = `Reads where each dependency comes from and how tightly its version is
held: npm dependency maps (dependencies, dev, peer, optional), Python
requirements files and pyproject dependencies, Cargo.toml, go.mod replace
directives, the launchers of .mcp.json, plugin mcpServers, hooks and
server.json, and the resolved sources of package-lock.json,
npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, uv.lock and poetry.lock.

It fails on a source other than the ecosystem registry: git+, github:,
owner/repo shorthands and other git sources without a full commit, tarball
URLs, file: or path sources outside the artifact, PEP 508 direct references
(name @ https://...), Cargo git dependencies without a full commit rev,
pip --index-url, --extra-index-url, --trusted-host or --find-links naming a
host other than PyPI, and lockfile entries resolved from any host other
than registry.npmjs.org, registry.yarnpkg.com, pypi.org or
files.pythonhosted.org. It warns on git dependencies pinned to a full
commit, on launchers that run a package without a version (npx -y pkg,
uvx pkg) and on lockfile registry entries without integrity. An open range
(*, latest, x, no version, >= without an upper bound) warns unless a
lockfile of the same ecosystem sits at the artifact root. workspace:,
npm: aliases with a version, file: and path sources inside the artifact,
caret and tilde ranges pass.`

// Remediation says how to fix a finding.
const Remediation = `Depend on registry versions with bounded ranges, and commit the lockfile with integrity hashes.`
