// Package nopersistence implements the no-persistence check.
package nopersistence

// Doc is the check's documentation.
const Doc = `Finds an artifact making itself or something else run again later, or
planting text its agent will read in every session: writes to crontab,
/etc/cron*, systemd, launchd, autostart and startup folders, rc.local,
ld.so.preload, sitecustomize and .pth files, shell rc files, SSH
authorized_keys, git hooks and git configuration, agent settings and
instruction files (CLAUDE.md, .claude/settings.json, .cursor/rules), and
instructions to the model to remember something permanently or to apply
it to every future session. It reads code, documents' commands and prose,
hooks and scripts through the analysis model.

It fails on a key added to authorized_keys; on a scheduled or start-up
entry, a preload or an agent file written by code; on a document's step
that does so in a document telling the model to hide it from the user
("do not mention this step", "silently"); on anything downloaded,
decoded or secret written into a persistence location; on a beacon
written into one (the user name, the host name or other system details
sent to a server or looked up in DNS each time it starts); and on an
instruction to keep an instruction permanently in a document that also
steers the model against its user (alone, that instruction warns). A
document's setup step, a shell rc file edited with a plain line (an
alias, a PATH export), a crontab -e the user runs, a service switched on
that the artifact does not install (systemctl enable docker), and
anything inside a container image (a Dockerfile's RUN, a script the
Dockerfile copies in that no instruction names) warn; a step the user is
asked to agree to, a persistence path written into a temporary directory
or removed again further down the same file, a labelled example and a
prohibition pass. Each finding names the location and, when known, what
it was given to run.`

// Remediation says how to fix a finding.
const Remediation = `Do not install anything that runs later. If the artifact needs a scheduled
job or a shell alias, document the line and let the user add it.`
