// Package nocryptomining implements the no-cryptomining check.
package nocryptomining

// Doc is the check's documentation.
const Doc = `Finds cryptocurrency mining: a known miner run (xmrig, cpuminer, t-rex,
lolminer …) or a mining pool reached (stratum+tcp://, stratum+ssl://, the
vocabulary's pool hosts), in code, documents' commands, hooks and scripts
through the analysis model.

It fails on each; a labelled example or a prohibition passes.`

// Remediation says how to fix a finding.
const Remediation = `Remove the miner.`
