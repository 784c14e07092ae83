// Package nohiddenunicode implements the no-hidden-unicode check.
package nohiddenunicode

// Doc is the check's documentation.
const Doc = `Finds code points that hide text from a reader but not from a model, in
every text file (markdown, txt, JSON, YAML, TOML, manifests, MCP config):
tag characters U+E0000–E007F (which can spell a whole instruction
invisibly), bidi controls U+202A–202E and U+2066–2069, directional marks,
zero-width and filler characters (U+200B–200D, U+2060–2064, U+FEFF after
the start, U+180E, Hangul fillers), variation selectors, runs of soft
hyphens and private-use code points.

It fails in files a model reads (SKILL.md, agent files, commands,
CLAUDE.md/AGENTS.md, READMEs, every markdown file of a skill) and warns in
other text files and on private-use characters. Legitimate sequences pass:
emoji ZWJ sequences, keycaps, flag tag sequences, VS16 after an emoji,
ideographic variation sequences, ZWNJ/ZWJ between Arabic, Persian or Indic
letters, LRM/RLM next to Hebrew or Arabic letters, a BOM at the start, a
soft hyphen inside a word, and a lone zero-width space at the start of a
line before a fence marker or nothing (Markdown's escape for a nested
fence or a blank line inside a list item). Evidence names the code points and, when tag
characters spell ASCII, the decoded text.`

// Remediation says how to fix a finding.
const Remediation = `Remove the characters and write the intent visibly.`
