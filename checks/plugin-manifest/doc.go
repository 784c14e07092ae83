// Package pluginmanifest implements the plugin-manifest check.
package pluginmanifest

// Doc is the check's documentation.
const Doc = `Detects a plugin without a loadable manifest: .claude-plugin/plugin.json
(or a root plugin.json, which passes with a note on its location) must be
a JSON object with a non-empty string 'name' and no duplicate keys.

Why: the agent installs, names and namespaces the plugin's commands,
agents and hooks from this file; a plugin whose manifest two parsers read
differently installs something other than what was reviewed.`

// Remediation says how to fix a finding.
const Remediation = `Write a valid .claude-plugin/plugin.json with a string "name" (and
version and description), each key once.`
