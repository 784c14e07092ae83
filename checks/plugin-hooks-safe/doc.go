// Package pluginhookssafe implements the plugin-hooks-safe check.
package pluginhookssafe

// Doc is the check's documentation.
const Doc = `Rates every hook the artifact ships: hooks/hooks.json, a plugin
manifest's hooks (inline or by path) and any shipped .claude/settings.json
or settings.local.json (project hooks run when the repository is opened).
Every command hook goes through the shell rules, and so does every shell
script it runs (${CLAUDE_PLUGIN_ROOT}/..., $CLAUDE_PROJECT_DIR/..., relative
paths). It fails on any shell-rules fail and on code fetched from a URL and
run. It warns on npx -y or uvx of an unpinned package, on a hook script
that is missing, and on hooks the documentation never mentions. Pinned
'npx -y pkg@1.2.3' and formatters or linters on PostToolUse are fine;
neutral when there are no hooks. Scripts in other languages and prompt
hooks are rated by the code and instruction checks.`

// Remediation says how to fix a finding.
const Remediation = `Ship the script, pin what it runs, and document every hook.`
