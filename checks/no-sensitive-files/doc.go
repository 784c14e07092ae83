// Package nosensitivefiles implements the no-sensitive-files check.
package nosensitivefiles

// Doc is the check's documentation.
const Doc = `Detects credential files shipped inside the artifact. Files are picked by
what the vocabulary (checks/vocab paths) says their path is: a credential
store (SSH keys, cloud, registry and cluster credentials, key files and
key stores, secrets files, Terraform state), a keychain, a wallet,
another agent's configuration, a .env file (not .env.example and other
templates), a shell history; a public key or known_hosts never counts.
Then their content decides. It fails when a file holds a private key
block, a secret-named key (by the vocabulary's secret names, in any
spelling: apiKey, api-key, API_KEY) with a real (non-placeholder) value,
a URL with an inline password, a machine password, password hashes or a
Docker 'auths' entry, and for a binary key store, keychain, wallet or
password database. Certificates and public keys alone, a .env whose
values are all empty, placeholders or ${VAR} references, and an .npmrc
with only registry settings pass.

Why: whatever is in the evaluated tree ships to every user. A .gitignore
line never downgrades a finding (the file is in the tree, so it ships), and
nothing under tests/ is exempt. Evidence names the path, never the value.`

// Remediation says how to fix a finding.
const Remediation = `Delete the file, rotate every credential it held, and purge it from
history. Ship an .env.example with empty values instead. A throw-away test
key can be waived with a reason.`
