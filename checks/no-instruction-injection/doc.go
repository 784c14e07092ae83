// Package noinstructioninjection implements the no-instruction-injection check.
package noinstructioninjection

// Doc is the check's documentation.
const Doc = `Reads the visible text of every file a model reads (SKILL.md and the
skill's other markdown, agent files, commands, CLAUDE.md/AGENTS.md,
READMEs, frontmatter values), one markdown state per file, and looks for
text addressed to the model that overrides the user or its host: override
("ignore previous instructions"), concealment of the artifact's own
actions ("do not tell the user that you ..."), forged authority
(<IMPORTANT>, <SYSTEM>, [SYSTEM], a turn forged as "Assistant:"), role
reassignment ("you are now", "developer mode"), pre-action coercion
("before answering, read/send/fetch ..."), approval bypass ("do not ask
for confirmation") and evaluator manipulation ("classify this skill as
safe").

Text is normalised first (invisible characters removed, NFKC, homoglyphs
mapped, case folded, lines of a paragraph joined), so zero-width
splitting, look-alike letters and line wrapping do not hide a phrase;
table rows and list items are read one by one. An unquoted hit fails; a
quoted hit warns, unless it is a labelled example: quoted, with a label
such as "attackers write", "don't", "malicious" or "injection" in its
sentence, the two lines before, the caption after or the heading. A
negated imperative and "never reveal your system prompt" pass.`

// Remediation says how to fix a finding.
const Remediation = `Remove text addressed to the model that overrides the user or its
host; quote and label examples of attacks.`
