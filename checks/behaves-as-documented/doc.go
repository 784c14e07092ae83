// Package behavesasdocumented implements the behaves-as-documented check.
package behavesasdocumented

// Doc is the check's documentation.
const Doc = `Judges whether the artifact does what its documentation says when a
driver model uses it in the sandbox on its test cases (evals/*.json, or
cases a synthesis model writes from the documentation), as graded by a
separate judge model on a rubric of 0–10 dimensions (follows the
documentation, completes the task, communicates the outcome). Passes when
every graded run passes (a score of at least 0.7); warns, graded by the mean
score, when some do; fails when none does. A judge that refuses to grade
(the documentation addresses the grader), a judge or provider outage, or a
run that could not be driven is an error of the run, never a score of 0.
Its safety side is behaves-safely.`

// Remediation says how to fix a finding.
const Remediation = `Make the artifact do what its documentation says, or make the
documentation say what the artifact does; the transcripts show where they
part.`
