// Package nohiddeninstructions implements the no-hidden-instructions check.
package nohiddeninstructions

// Doc is the check's documentation.
const Doc = `Reads the channels a markdown renderer hides or collapses in every file a
model reads: HTML comments, link reference definitions and the
'[//]: # (...)' idiom, link titles and image alt text, <details> bodies,
elements GitHub strips or hides (script, style, template, noscript, the
hidden attribute, display:none, font-size:0, opacity:0, white text), text
after a padding run (500 blank lines or 10,000 whitespace characters), and
prose in unknown frontmatter keys of a skill.

It fails on any instruction-analyser or hostile-action hit there, and on
text addressed to the model (assistant, AI, Claude, the model, the agent,
"when the user asks") together with an action verb (read, run, execute,
send, fetch, call, write, delete, include); in <details>, which a click
shows, only analyser hits count. It warns on more than 40 words of hidden
prose. Tool markers (markdownlint, prettier-ignore, TOC, generated-section
markers), licence headers and '[//]: # (TODO: ...)' pass. The exemption for
labelled examples never applies in a hidden channel.`

// Remediation says how to fix a finding.
const Remediation = `Make the text visible or delete it.`
