// Package skillnohostileactions implements the skill-no-hostile-actions check.
package skillnohostileactions

// Doc is the check's documentation.
const Doc = `Reads SKILL.md and every other markdown or text file of the skill with
the hostile-action analyser: commands in fenced blocks and inline code
through the shell rules (all of a file's shell blocks also as one program,
so a download in one step and its execution in the next are seen
together; a pipe written \| in a table cell is a pipe; a block or code
span that is one base64 run is decoded and rated too, since "decode this
and run it" hides the command from every reader but the model), and
imperatives to read credential stores, send data to a URL,
add persistence, disable safety prompts, delete broadly, or fetch
instructions from a URL and follow them.

It fails on such a step unless it is negated ("never run ...") or a
labelled example (a "don't do this" block). Installing from a registry
(pip install pypdf, npm i -g tool), an official auth flow with the
vendor's own credential, and "see .env.example for the variable names"
pass. Hostile text moved into references/ is read like SKILL.md.`

// Remediation says how to fix a finding.
const Remediation = `Remove the step, or make it the user's explicit, documented choice.`
