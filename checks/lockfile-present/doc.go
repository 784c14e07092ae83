// Package lockfilepresent implements the lockfile-present check.
package lockfilepresent

// Doc is the check's documentation.
const Doc = `Applies when the artifact declares dependencies in a manifest
(package.json, pyproject.toml, requirements*.txt, go.mod, Cargo.toml) and
looks for the lockfile of each ecosystem at the artifact root: npm
package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock or
bun.lock; Python uv.lock, poetry.lock, pdm.lock, Pipfile.lock, pylock.toml
or requirements pinned entirely with ==; go.sum; Cargo.lock.

A local directory that is a member of an enclosing workspace (the root's
package.json workspaces, pnpm-workspace.yaml, Cargo [workspace], uv
workspace or go.work lists it) passes with a note when that root holds the
lockfile; the root is read-only context, not part of the evaluated
artifact. Registry packages are not applicable: publishing drops
lockfiles. It warns for each ecosystem left unlocked.`

// Remediation says how to fix a finding.
const Remediation = `Commit the lockfile your package manager writes (npm install, uv lock, cargo generate-lockfile, go mod tidy).`
