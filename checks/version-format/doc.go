// Package versionformat implements the version-format check.
package versionformat

// Doc is the check's documentation.
const Doc = `Checks the version each manifest declares: semver (an optional leading
'v') for package.json, Cargo.toml, plugin.json, agent.json and server.json;
PEP 440 for pyproject.toml, where dynamic = ["version"] passes with a note.
A go.mod declares no version (Go versions are VCS tags), so a Go server is
neutral; a skill (or a markdown-only agent) is neutral without a version
and checked when 'version' or 'metadata.version' is present. Warns on a
missing or invalid version; never fails.

Why: consumers pin, compare and attest versions; a version no tool can
parse cannot be pinned.`

// Remediation says how to fix a finding.
const Remediation = `Declare a valid semver version (1.2.3), or a PEP 440 version for a
Python package.`
