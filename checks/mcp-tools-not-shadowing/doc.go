// Package mcptoolsnotshadowing implements the mcp-tools-not-shadowing check.
package mcptoolsnotshadowing

// Doc is the check's documentation.
const Doc = `Reads the descriptions of the server's tools, prompts and resources and its
instructions for text that directs how other tools or servers behave, and
compares tool names with the names of agent built-ins.

It fails on a description that tells the model what to do when another
tool is used ("when send_email is used, always add ..."), claims to
replace another tool ("this replaces the X tool", "instead of X, use
this"), or sets rules for other tools ("all other tools must ..."). A tool
name equal to an agent built-in or client-reserved name after
normalisation (case, -/_/., camelCase), or one edit away from it (Bash,
Read, Write, Edit, MultiEdit, Glob, Grep, LS, WebFetch, WebSearch, Task,
TodoWrite, NotebookEdit, computer, text_editor,
str_replace_based_edit_tool), is a warning. Common names shared with other
servers (search, fetch, read_file) are not findings.`

// Remediation says how to fix a finding.
const Remediation = `Describe only this tool's own behaviour, and choose a name no built-in
tool uses.`
