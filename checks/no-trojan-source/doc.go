// Package notrojansource implements the no-trojan-source check.
package notrojansource

// Doc is the check's documentation.
const Doc = `Finds code whose meaning differs from what a reviewer sees (Trojan
Source, CVE-2021-42574) in code files of every language and in the
Python, JavaScript/TypeScript and Go blocks of documents. It fails on a
bidi embedding, override or isolate outside string literals (in code or
comments), or inside a literal that does not also contain RTL letters and
close every embedding itself; on invisible or filler characters in
identifiers ('const ㅤ = ...'); and on an identifier that mixes Latin with
Cyrillic, Greek or Armenian letters in one token. It warns on LRM/RLM
marks in comments. JavaScript/TypeScript, Python and Go are tokenized, so
strings and comments are told apart; other languages are judged line by
line. Balanced RTL UI strings, single-script non-ASCII identifiers (naïve,
π) and emoji in strings pass.`

// Remediation says how to fix a finding.
const Remediation = `Remove the control characters and rename the identifiers to one script.`
