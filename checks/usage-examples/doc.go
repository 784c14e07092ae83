// Package usageexamples implements the usage-examples check.
package usageexamples

// Doc is the check's documentation.
const Doc = `Looks in the documentation (see documentation-present) for a worked
example: a fenced code block with content, a section headed Usage,
Example(s), Quick start, Getting started, How to use, Walkthrough,
Tutorial or Workflow that has content, or a reference to a file under
examples/ that the artifact ships. It warns when there is none.`

// Remediation says how to fix a finding.
const Remediation = `Add one worked example: the input, the command or request, and what comes back.`
