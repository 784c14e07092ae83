// Package testspresent implements the tests-present check.
package testspresent

// Doc is the check's documentation.
const Doc = `Counts test and eval files (metric test_files): files under test, tests,
__tests__, spec or e2e directories, *.test.* and *.spec.* files,
test_*.py, *_test.py, *_test.go, *_test.rs, and evals/*.json. It is
information only (weight 0): it passes when there are some and is not
applicable when there are none, never warns.`

// Remediation says how to fix a finding.
const Remediation = `Ship the tests or evals that show it works.`
