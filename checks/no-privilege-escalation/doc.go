// Package noprivilegeescalation implements the no-privilege-escalation check.
package noprivilegeescalation

// Doc is the check's documentation.
const Doc = `Finds an artifact raising its own or another account's privilege: setuid
or setgid bits (chmod 4755, u+s), world-writable system paths (chmod 777
on /, /etc, /usr …), edits of sudoers, passwd, group or PAM files, adding
a user to sudo, wheel or admin, NOPASSWD rules, setuid(0) calls, and
ownership changes to root on system paths. It reads code, documents'
commands, hooks and scripts through the analysis model.

It fails on each; a step the user is asked to agree to, a documented
usermod -aG docker, the account running a setup script ($USER,
$SUDO_USER) added to the docker group, and any account change inside a
container image being built (a Dockerfile's RUN, a dockerfile block)
warn; sudo on its own (installing a package) is not a finding.`

// Remediation says how to fix a finding.
const Remediation = `Run without extra privilege; document any privileged step for the user to
run themselves.`
