// Package nosensitivefiles implements the no-sensitive-files check.
package nosensitivefiles

// Doc is the check's documentation.
const Doc = `Detects credential files shipped inside the artifact. Files are picked by
name (.env and .env.* but for .example/.sample/.template/.dist/.defaults;
id_rsa, id_dsa, id_ecdsa, id_ed25519; *.pem, *.key, *.p12, *.pfx, *.jks,
*.keystore, *.ppk, *.kdbx; .npmrc, .pypirc, .netrc, _netrc,
.git-credentials, .docker/config.json, kubeconfig, .kube/config,
.aws/credentials, credentials(.json), service-account*.json, *.tfstate,
.htpasswd, shell history files); then their content decides. It fails
when a file holds a private key block, a token or password key with a
real (non-placeholder) value, a URL with an inline password, a Docker
'auths' entry or a JSON 'private_key', and for binary key stores and
password databases. Certificates and public keys alone, a .env whose
values are all empty, placeholders or ${VAR} references, and an .npmrc
with only registry settings pass.

Why: whatever is in the evaluated tree ships to every user. A .gitignore
line never downgrades a finding (the file is in the tree, so it ships), and
nothing under tests/ is exempt. Evidence names the path, never the value.`

// Remediation says how to fix a finding.
const Remediation = `Delete the file, rotate every credential it held, and purge it from
history. Ship an .env.example with empty values instead. A throw-away test
key can be waived with a reason.`
