// Package noresourceexhaustion implements the no-resource-exhaustion check.
package noresourceexhaustion

// Doc is the check's documentation.
const Doc = `Finds work that exhausts the machine on an ordinary run: fork bombs in any
spelling (:(){ :|:& };:), forks or process starts in an unbounded loop, in
code, documents' commands, hooks and scripts, through the analysis model;
and instructions to the model to start work without bound: to go on
until the machine's resources are exhausted, to have each agent or
process it starts start more of them, or to spawn processes, agents or
tabs forever. A labelled example or a prohibition passes.
Unbounded allocation and recursion are not modelled yet; they are found by
the behavioral tier's limits.`

// Remediation says how to fix a finding.
const Remediation = `Bound every loop that starts processes; never start a process per
iteration of an endless loop.`
