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

It reads each channel as the analysis model reads a document (its prose
producer, with the vocabulary's phrases) and fails on an instruction to
the model there (overriding its rules, hiding from the user, claiming
authority, following fetched instructions, reading or sending a secret…),
on an instruction to change, read or send a path the vocabulary labels as a
persistence location or the user's secrets (~/.bashrc,
~/.ssh/authorized_keys, ~/.netrc), and on text addressed to the model (the
vocabulary's words for it, "when the user asks") together with an action
verb (read, run, execute, send, call, write, delete, include, upload, post,
open, cat) or a program the vocabulary knows as fetching or sending (curl,
wget, nc); in <details>, which a click shows, only the model's
instructions count. A prohibition ("never ignore the user's instructions")
asks for nothing. It warns on more than 40 words of hidden prose. Tool
markers (markdownlint, prettier-ignore, TOC, generated-section markers),
licence headers and '[//]: # (TODO: ...)' pass. The exemption for
labelled examples never applies in a hidden channel.`

// Remediation says how to fix a finding.
const Remediation = `Make the text visible or delete it.`
