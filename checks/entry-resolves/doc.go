// Package entryresolves implements the entry-resolves check.
package entryresolves

// Doc is the check's documentation.
const Doc = `Detects an entry point that points at nothing. Entries: package.json
'bin' (each), 'main' and exports["."]; pyproject [project.scripts]
'pkg.mod:func', resolved to pkg/mod.py, pkg/mod/__init__.py or under src/,
with 'func' defined there; a Go 'package main' at the root or under cmd/
must define 'func main'; Cargo [[bin]] paths; agent.json 'entry'.

It fails when an entry is missing and nothing in the tree builds it. In a
source checkout, an entry under the output of a recognised build reached
through the build/prepare scripts (tsc with tsconfig outDir, or next to its
.ts source; esbuild --outdir/--outfile; tsup; rollup; vite; bun build)
passes, with a note naming the build. In a registry tarball (npm or PyPI
provenance) any missing entry fails: what was published is all there is.

Why: a missing entry means the command users run is not the code that was
reviewed, or is resolved from somewhere else entirely.`

// Remediation says how to fix a finding.
const Remediation = `Correct the entry's path, or declare the build that produces it (and
publish its output).`
