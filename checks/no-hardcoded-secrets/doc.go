// Package nohardcodedsecrets implements the no-hardcoded-secrets check.
package nohardcodedsecrets

// Doc is the check's documentation.
const Doc = `Scans every text file that ships, in tests/, dist/ and minified code
alike, with the rule set gitleaks maintains (221 rules: cloud, forge,
chat, payment and model-vendor keys, private key blocks, JWTs, connection
strings with passwords, and a generic secret-named assignment with an
entropy floor), kept as versioned data. Each match is judged by its value
alone: the rule's entropy floor and allowlists, and placeholders (repeated
or sequential characters, x or * runs, <...>, ${...}, {{...}}, %s, a word
such as example, your, changeme, dummy, fake, redacted or test, the
vendors' documented example keys), and values that say by themselves they
are made up: cut short with an ellipsis ("eyJhbGci...", "tk_live_..."),
counted out ("A1B2C3D4…", "abcdef-1234"), spelled from the words that
name a credential and a count ("sk-testsecret12345678"), or the base64
of such a text or of a name. The generic rule also reads the name a
value is assigned to: a value that is itself another name's assignment
("Tokenization: max_length=512"), a secret word that is only part of
another ("tokenizer_name") and an account address (0x and 40 hex digits,
or a name ending in address) are not secrets. '...' or EXAMPLE elsewhere
on the line changes nothing. A line holding JSON or JS escapes (\u005f, \x5f, \/) or
URL-encoding (%5F) is also scanned decoded, so escaping one character
of a key does not hide it. A Stripe test key (sk_test_) is a warning; every other
match fails. Evidence is the path, line, column and rule id, never the
value.`

// Remediation says how to fix a finding.
const Remediation = `Revoke and rotate the credential, remove it from history, and read it
from the environment at run time.`
