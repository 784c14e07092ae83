// Package nohostileshellcommands implements the no-hostile-shell-commands check.
package nohostileshellcommands

// Doc is the check's documentation.
const Doc = `Parses every shell program the artifact ships (.sh/.bash/.zsh/.ksh/.command
files and extensionless files with a shell shebang, every package.json
script, Dockerfile RUN instructions, Makefile recipes, CI run steps) and
rates it with the shell rules; 'sh -c' bodies, eval strings and heredocs
fed to a shell are parsed again. It fails on download-and-execute (a fetch
piped or substituted into an interpreter, or downloaded then run without a
checksum check), reverse and bind shells (/dev/tcp, nc -e, socat exec:, a
named pipe with netcat, socket one-liners), reading a credential store and
sending data over the network in one program, persistence (crontab, cron
and systemd files, launchd jobs, shell start-up files, authorized_keys,
global git hooks), destruction (rm -r of /, ~, $HOME or an unguarded
"$DIR"/, dd to a disk, mkfs, a fork bomb), defence evasion (clearing
history, SELinux or the firewall off, chattr +i), privilege changes
(sudoers, setuid bits, chmod -R 777 /) and decode-then-execute (base64 -d |
sh, xxd -r | bash, rev | sh). It warns on sudo, on installing packages at
run time and on running a download after verifying its checksum.

A command that is only an argument ('echo "curl x | sh"') is text, not a
command; curl | jq, curl | tar -xz and rm -rf of the project's own build
directories are fine. A program that does not parse is rated line by line,
so breaking the syntax does not hide a command.`

// Remediation says how to fix a finding.
const Remediation = `Vendor the script you would download and verify its checksum, or
remove the behaviour.`
