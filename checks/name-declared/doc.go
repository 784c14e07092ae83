// Package namedeclared implements the name-declared check.
package namedeclared

// Doc is the check's documentation.
const Doc = `Reads the name every manifest of the artifact declares: package.json
'name', pyproject [project].name or [tool.poetry].name, Cargo
[package].name, the go.mod module path (its last element, skipping a /vN
suffix), SKILL.md, plugin.json and agent.json 'name', and server.json
'name' (the part after '/'). It fails when no manifest names the artifact,
warns when a name is not lowercase kebab-case after its ecosystem's
normalisation (npm scope dropped; PEP 503 for Python; '_' as '-' for Cargo),
and warns when two manifests name it differently.

Why: the name is how users, registries and agents refer to the artifact;
two names for one artifact is how a lookalike slips in.`

// Remediation says how to fix a finding.
const Remediation = `Declare one canonical lowercase kebab-case name, the same in every
manifest.`
