// Package recentlymaintained implements the recently-maintained check.
package recentlymaintained

// Doc is the check's documentation.
const Doc = `Records how long ago the evaluated commit was made (metric
days_since_last_commit), from the commit time that resolve records when
the target came from git, measured against the run's start time (the
clock grant). It is information only (weight 0) and never warns; without a
commit time (a local directory, a package) it is not applicable.`

// Remediation says how to fix a finding.
const Remediation = `None needed; consumers may set their own policy on the metric.`
