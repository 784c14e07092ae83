// Package nodefenceevasion implements the no-defence-evasion check.
package nodefenceevasion

// Doc is the check's documentation.
const Doc = `Finds an artifact covering its tracks or switching off the host's
defences: clearing or disabling shell history (history -c, unset
HISTFILE, HISTFILE=/dev/null), wiping or truncating logs (/var/log,
journalctl --vacuum, wevtutil cl), rewriting timestamps (touch -r, -t),
making files immutable (chattr +i), stopping or disabling security tools
(SELinux, AppArmor, firewalls, auditd, antivirus, EDR agents), turning off
Windows Defender, and instructions to the model to disable the sandbox or
the host's safety checks. Debugger, VM and sandbox detection warns. It
reads code, documents' commands and prose, hooks and scripts through the
analysis model.

It fails on each but detection; a labelled example or a prohibition
passes. A sentence that says what its own subject does ("the value taken
when unset disables a security control", "VNC — bypasses the firewall")
is not an instruction, and an MCP tool whose name says it stops or
disables the thing (stop_scan: "stop a running security scan") only
warns: calling it is the user's choice.`

// Remediation says how to fix a finding.
const Remediation = `Leave the host's history, logs and defences alone; an artifact that needs a
permission asks the user for it.`
