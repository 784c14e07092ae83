// Package mcpmetadatanotconcealed implements the mcp-metadata-not-concealed check.
package mcpmetadatanotconcealed

// Doc is the check's documentation.
const Doc = `Reads every string of the server's MCP surface (tools, prompts, resources,
their parameters and the server's instructions, from source or a captured
surface) for text a person reviewing the tool list cannot see or would
misread.

It fails on any invisible, bidi, tag or private-use code point (emoji
sequences joined by zero-width joiners and emoji tag sequences such as
flags are allowed), ANSI escape sequences and other control characters but
tab, newline and carriage return, a word mixing Latin with Cyrillic, Greek
or Armenian letters, and a word of three or more letters written in
another script that reads as an ASCII word (Cyrillic "rеаd" for "read"),
and a base64 or hex run that decodes to a command (a download piped to a
shell, a deletion, a chmod): a payload the reviewer cannot read, handed
to a model that can decode it.

Not flagged: unit and math symbols (μs, π, Δ, Ω, °, ±), whole words in
Cyrillic or Greek (localised text), CJK, emoji.`

// Remediation says how to fix a finding.
const Remediation = `Use plain text in one script per word; remove hidden characters and
terminal escape sequences.`
