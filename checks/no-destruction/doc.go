// Package nodestruction implements the no-destruction check.
package nodestruction

// Doc is the check's documentation.
const Doc = `Finds destruction outside the artifact's work directory and its own
outputs: recursive deletion of the home directory, the root, system
directories or everything under them (rm -rf ~, /, $HOME, /*, /etc;
shutil.rmtree of the home), overwriting or formatting a disk (dd of=/dev/sd*,
mkfs, wipefs), killing init or every process, and instructions to the model
to delete every file, repository or backup. It reads code, documents'
commands and prose, hooks and scripts through the analysis model.

It fails on each; deleting the artifact's own build outputs, temporary
files or a named subdirectory passes; a labelled example or a prohibition
passes, and so do the entries of a deny list ("deny": ["rm -rf /"] in a
permission template) and what happens inside a container image being
built. A tool description asking for broad deletion in the words of the
tool's own name (wipe_workspace: "wipe the workspace") warns: that is what
calling the tool does, which the user approves by calling it.`

// Remediation says how to fix a finding.
const Remediation = `Delete only what the artifact created, by explicit relative path, and
guard variables used in paths (${DIR:?}).`
